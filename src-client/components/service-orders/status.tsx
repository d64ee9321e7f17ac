// A service order's status in words (the one label map in src-shared) with a colour, and its due date.
import { formatDate } from '#shared/dates.ts'
import { SERVICE_ORDER_STATUS_LABELS, type ServiceOrderStatus } from '#shared/service-orders.ts'
import { css } from '#styled-system/css'
import { badge } from '../ui/badge.ts'

const TONE: Record<ServiceOrderStatus, 'green' | 'yellow' | 'red' | 'blue' | 'grey'> = {
  brief_needed: 'yellow',
  submitted: 'blue',
  in_progress: 'blue',
  delivered: 'green',
  revision_requested: 'yellow',
  completed: 'green',
  cancelled: 'grey',
}

export function ServiceOrderStatusBadge({ status }: { status: ServiceOrderStatus }) {
  return (
    <span className={badge({ tone: TONE[status] })} data-testid="service-order-status">
      {SERVICE_ORDER_STATUS_LABELS[status]}
    </span>
  )
}

export function formatDue(dueAt: string | null): string {
  return dueAt ? formatDate(dueAt, 'medium') : '—'
}

const day = (iso: string) => formatDate(iso, 'medium')

export interface PeriodSummary {
  number: number
  startsAt: string
  endsAt: string
  dueAt: string
  deliveredAt: string | null
  /** What came back of the month's payment (the detail pages only). */
  refund?: 'refunded' | 'partly_refunded' | null
}

const REFUND_TEXT = { refunded: 'Refunded', partly_refunded: 'Partly refunded' } as const

/** A recurring order's latest month in a few words, for the lists. */
export function periodLine(period: PeriodSummary): string {
  return period.deliveredAt
    ? `Month ${period.number}: report delivered ${day(period.deliveredAt)}`
    : `Month ${period.number}: report due ${day(period.dueAt)}`
}

/** A recurring order's paid months, each with its report's state; and when a cancelled subscription ends. */
export function Periods({ periods, endsAt }: { periods: readonly PeriodSummary[]; endsAt: string | null }) {
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
      {endsAt ? (
        <p className={css({ fontSize: 'sm', fontWeight: 'medium' })} data-testid="ends-at">
          Subscription cancelled: the service ends on {day(endsAt)}.
        </p>
      ) : null}
      {periods.length === 0 ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No paid month yet.</p>
      ) : (
        <ol className={css({ display: 'flex', flexDir: 'column', gap: '1', fontSize: 'sm' })} data-testid="periods">
          {periods.map((period) => (
            <li key={period.number} data-testid="period">
              <strong>Month {period.number}</strong> · {day(period.startsAt)} – {day(period.endsAt)} ·{' '}
              {period.deliveredAt ? `Report delivered ${day(period.deliveredAt)}` : `Report due ${day(period.dueAt)}`}
              {period.refund ? <span data-testid="period-refund"> · {REFUND_TEXT[period.refund]}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}

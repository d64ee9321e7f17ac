// A service order's status in words (the one label map in src-shared) with a colour, and its due date.
import { SERVICE_ORDER_STATUS_LABELS, type ServiceOrderStatus } from '../../../src-shared/service-orders.ts'
import { badge } from '../admin/styles.ts'

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
  return dueAt ? new Date(dueAt).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '—'
}

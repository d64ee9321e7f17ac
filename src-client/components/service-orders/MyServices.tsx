// /account → My services: each bought service with its status, due date, unread messages and what to do next.
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { EmptyState, ErrorState, LoadingState } from '../ui/states.tsx'
import { formatDue, periodLine, ServiceOrderStatusBadge } from './status.tsx'

export function MyServices() {
  const trpc = useTRPC()
  const orders = useQuery(trpc.serviceOrders.mine.queryOptions())
  if (orders.isPending) return <LoadingState label="Loading your services…" />
  if (orders.isError)
    return (
      <ErrorState title="Failed to load your services" error={orders.error} onRetry={() => void orders.refetch()} />
    )
  if (orders.data.length === 0) return <EmptyState title="No services yet" />
  return (
    <ul className={css({ display: 'flex', flexDir: 'column', gap: '3' })} data-testid="my-services">
      {orders.data.map((order) => (
        <li
          key={order.id}
          data-testid="my-service"
          className={css({
            p: '4',
            borderWidth: '1px',
            borderColor: 'line',
            borderRadius: 'card',
            display: 'flex',
            flexWrap: 'wrap',
            gap: '3',
            alignItems: 'center',
            justifyContent: 'space-between',
          })}
        >
          <div>
            <p className={css({ fontWeight: 'semibold' })}>{order.title}</p>
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
              <ServiceOrderStatusBadge status={order.status} /> ·{' '}
              {order.dueAt
                ? `Due ${formatDue(order.dueAt)}`
                : order.status === 'brief_needed'
                  ? 'Due date set when you submit your brief'
                  : 'No due date'}
              {order.period ? <span data-testid="period-line"> · {periodLine(order.period)}</span> : null}
              {order.endsAt && order.status !== 'completed' && order.status !== 'cancelled' ? (
                <span> · Ends {formatDue(order.endsAt)}</span>
              ) : null}
              {order.unread > 0 ? (
                <span data-testid="unread" className={css({ ml: '2', color: 'accent', fontWeight: 'semibold' })}>
                  {order.unread} new {order.unread === 1 ? 'message' : 'messages'}
                </span>
              ) : null}
            </p>
          </div>
          <Link
            to="/account/services/$id"
            params={{ id: order.id }}
            className={button({ variant: order.status === 'brief_needed' ? 'primary' : 'outline', size: 'sm' })}
          >
            {order.status === 'brief_needed' ? 'Submit your brief' : 'View details'}
          </Link>
        </li>
      ))}
    </ul>
  )
}

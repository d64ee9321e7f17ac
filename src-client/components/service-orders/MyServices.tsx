// /account → My services: each bought service with its status, due date, unread messages and what to do next.
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css, cx } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { borderedCard } from '../ui/card.ts'
import { QueryList } from '../ui/QueryList.tsx'
import { formatDue, periodLine, ServiceOrderStatusBadge } from './status.tsx'

type MyService = RouterOutputs['serviceOrders']['mine'][number]

export function MyServices() {
  const trpc = useTRPC()
  const orders = useQuery(trpc.serviceOrders.mine.queryOptions())
  return (
    <QueryList
      query={orders}
      loading="Loading your services…"
      failed="Failed to load your services"
      empty="No services yet"
    >
      {(list) => <ServiceList orders={list} />}
    </QueryList>
  )
}

function ServiceList({ orders }: { orders: MyService[] }) {
  return (
    <ul className={css({ display: 'flex', flexDir: 'column', gap: '3' })} data-testid="my-services">
      {orders.map((order) => (
        <li
          key={order.id}
          data-testid="my-service"
          className={cx(
            borderedCard,
            css({
              p: '4',
              display: 'flex',
              flexWrap: 'wrap',
              gap: '3',
              alignItems: 'center',
              justifyContent: 'space-between',
            }),
          )}
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

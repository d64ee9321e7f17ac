// The service-order work queue: filters by status, service, assignee and overdue, soonest due first, with counts,
// a page at a time (the page is in the URL, so Back and shared links keep it).
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { AdminTable, PagedList } from '#client/components/admin/AdminTable.tsx'
import { FindForm } from '#client/components/admin/FindForm.tsx'
import { FilterSelect, StatusFilter } from '#client/components/admin/StatusFilter.tsx'
import {
  optionalEnum,
  optionalFlag,
  optionalPage,
  optionalText,
  searchParams,
  text,
} from '#client/components/admin/search.ts'
import { pageHead, pageTitle, rowLink } from '#client/components/admin/styles.ts'
import { formatDue, periodLine, ServiceOrderStatusBadge } from '#client/components/service-orders/status.tsx'
import { CheckboxField, Options } from '#client/components/ui/form.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import type { Trpc } from '#client/lib/trpc.ts'
import { searchedAddress } from '#shared/schemas/admin.ts'
import {
  assignableMembers,
  SERVICE_ORDER_STATUS_LABELS,
  SERVICE_ORDER_STATUSES as STATUSES,
} from '#shared/service-orders.ts'
import { css } from '#styled-system/css'

type QueueSearch = {
  status?: (typeof STATUSES)[number]
  service?: string
  assignee?: string
  overdue?: boolean
  page?: number
}

// A buyer searched for is the page's own state, not its URL (components/admin/FindForm.tsx).
const queueQuery = (trpc: Trpc, search: QueueSearch, buyer?: string) =>
  trpc.admin.serviceOrders.list.queryOptions({
    status: search.status,
    serviceId: search.service,
    assignee: search.assignee,
    overdue: search.overdue || undefined,
    page: search.page ?? 1,
    buyer,
  })

// A staff member's id or 'none' (Unassigned), as the server accepts (its z.uuid()); anything else, such as a mangled
// link, is no filter rather than an error page. zod's own rule, copied: the route's search checks are in the first
// page's JavaScript, which does not carry zod.
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/
const optionalAssignee = text(36, (value) => (value === 'none' || UUID.test(value) ? value : undefined))

const routeSearch = searchParams({
  status: optionalEnum(STATUSES),
  service: optionalText,
  assignee: optionalAssignee,
  overdue: optionalFlag,
  page: optionalPage,
})

export const Route = createFileRoute('/admin/_staff/service-orders')({
  head: () => ({ meta: [{ title: 'Service orders | SkillForge Admin' }] }),
  validateSearch: routeSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    Promise.all([
      context.queryClient.ensureQueryData(queueQuery(context.trpc, deps)),
      context.queryClient.prefetchQuery(context.trpc.services.list.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.admin.team.list.queryOptions()),
    ]),
  pendingComponent: () => <LoadingState label="Loading service orders…" />,
  errorComponent: routeError('Could not load service orders'),
  component: ServiceOrdersQueue,
})

function ServiceOrdersQueue() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const [buyer, setBuyer] = useState<string>()
  const queue = useQuery({ ...queueQuery(trpc, search, buyer), placeholderData: keepPreviousData })
  const services = useQuery(trpc.services.list.queryOptions())
  const team = useQuery(trpc.admin.team.list.queryOptions())
  const counts = queue.data?.counts
  const statusLabels = Object.fromEntries(
    STATUSES.map((status) => [status, `${SERVICE_ORDER_STATUS_LABELS[status]} (${counts?.byStatus[status] ?? 0})`]),
  ) as Record<(typeof STATUSES)[number], string>
  // A new filter starts again at its first page.
  const setSearch = (patch: Partial<QueueSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, page: undefined, ...patch }) })

  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Service orders</h1>
        {counts ? (
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })} data-testid="queue-counts">
            {counts.overdue} overdue · {counts.byStatus.brief_needed ?? 0} awaiting brief · {counts.unreadMessages}{' '}
            unread {counts.unreadMessages === 1 ? 'message' : 'messages'}
          </p>
        ) : null}
      </div>
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', mb: '4', alignItems: 'center' })}>
        <StatusFilter
          value={search.status}
          statuses={STATUSES}
          labels={statusLabels}
          allLabel="All statuses"
          onChange={(status) => setSearch({ status })}
        />
        <FilterSelect label="Filter by service" value={search.service} onChange={(service) => setSearch({ service })}>
          <option value="">All services</option>
          <Options items={services.data} value={(service) => service.id} label={(service) => service.title} />
        </FilterSelect>
        <FilterSelect
          label="Filter by assignee"
          value={search.assignee}
          onChange={(assignee) => setSearch({ assignee })}
        >
          <option value="">Anyone</option>
          <option value="none">Unassigned</option>
          {/* Those an order can be given to, as the order page's selector lists them. */}
          <Options items={assignableMembers(team.data)} value={(member) => member.id} label={(member) => member.name} />
        </FilterSelect>
        <CheckboxField
          label={`Overdue only (${counts?.overdue ?? 0})`}
          checked={search.overdue === true}
          onChange={(e) => setSearch({ overdue: e.target.checked || undefined })}
        />
      </div>
      <FindForm
        landmark="Find a customer’s service orders"
        label="Customer e-mail"
        name="buyer"
        type="email"
        placeholder="name@example.com"
        searching={buyer !== undefined}
        rule={searchedAddress}
        onFind={(next) => {
          setBuyer(next)
          setSearch({})
        }}
      />
      <PagedList
        query={queue}
        loading="Loading service orders…"
        failed="Could not load service orders"
        empty={buyer ? `No service orders of ${buyer}` : 'No service orders found'}
        onPage={(next) => void navigate({ search: (prev) => ({ ...prev, page: next }) })}
      >
        {(data) => (
          <>
            <p className={css({ fontSize: 'sm', color: 'fg.muted', px: '4', pt: '3' })} data-testid="queue-range">
              {(data.page - 1) * data.pageSize + 1}–{(data.page - 1) * data.pageSize + data.items.length} of{' '}
              {data.total} {data.total === 1 ? 'order' : 'orders'}
            </p>
            <AdminTable columns={['Order', 'Customer', 'Status', 'Due', 'Assignee', 'Messages']}>
              {data.items.map((order) => (
                <tr key={order.id} data-testid="service-order-row">
                  <td>
                    <Link to="/admin/service-orders/$id" params={{ id: order.id }} className={rowLink}>
                      {order.title}
                    </Link>
                  </td>
                  <td>{order.buyerEmail}</td>
                  <td>
                    <ServiceOrderStatusBadge status={order.status} />
                    {order.period ? (
                      <div className={css({ fontSize: 'xs', color: 'fg.muted', mt: '1' })}>
                        {periodLine(order.period)}
                      </div>
                    ) : null}
                  </td>
                  <td className={css({ color: order.overdue ? 'danger' : undefined })}>
                    {formatDue(order.dueAt)}
                    {order.overdue ? ' (overdue)' : ''}
                  </td>
                  <td>{order.assignee?.name ?? 'Unassigned'}</td>
                  <td>{order.unread > 0 ? `${order.unread} unread` : ''}</td>
                </tr>
              ))}
            </AdminTable>
          </>
        )}
      </PagedList>
    </>
  )
}

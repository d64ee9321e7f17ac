// Orders: list by status; admins mark PayPal and bank-transfer orders paid, cancel unpaid ones, refund paid ones
// (whole or chosen lines), end the plan a plan order started (End membership: at the period's end or now, no refund;
// decision 0096) and decide buyers' refund requests (counted in the badge); invoices open from each row.

import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { AdminTable, PagedList } from '#client/components/admin/AdminTable.tsx'
import { CustomerLink } from '#client/components/admin/CustomerLink.tsx'
import { FindForm } from '#client/components/admin/FindForm.tsx'
import { AssignLinesDialog } from '#client/components/admin/orders/AssignLinesDialog.tsx'
import { EndMembershipDialog, type StaffPlan } from '#client/components/admin/orders/EndMembershipDialog.tsx'
import { RefundDialog } from '#client/components/admin/orders/RefundDialog.tsx'
import { RefundRequests } from '#client/components/admin/orders/RefundRequests.tsx'
import { StatusFilter } from '#client/components/admin/StatusFilter.tsx'
import { atPage, type StatusPage, statusListRoute } from '#client/components/admin/search.ts'
import { pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { useRefreshAdmin, useStaff } from '#client/components/admin/use-staff.ts'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { reloadThenToast } from '#client/components/ui/toaster.tsx'
import { ORDER_STATUS_LABELS, PAYMENT_METHOD_LABELS } from '#client/lib/order-labels.ts'
import type { Trpc } from '#client/lib/trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { ORDER_STATUSES as STATUSES } from '#shared/admin.ts'
import { formatDate } from '#shared/dates.ts'
import { formatMoney } from '#shared/money.ts'
import { orderLookup } from '#shared/schemas/admin.ts'
import { css } from '#styled-system/css'

const STATUS_TONE = {
  pending: 'yellow',
  awaiting_transfer: 'yellow',
  paid: 'green',
  failed: 'red',
  cancelled: 'grey',
  expired: 'grey',
  partially_refunded: 'yellow',
  refunded: 'grey',
  disputed: 'red',
} as const

// An order found by reference or customer is the page's own state, not its URL (components/admin/FindForm.tsx).
const ordersQuery = (trpc: Trpc, { status, page = 1 }: StatusPage<(typeof STATUSES)[number]>, lookup?: string) =>
  trpc.admin.orders.list.queryOptions({ status, page, lookup })

export const Route = createFileRoute('/admin/_staff/orders')({
  head: () => ({ meta: [{ title: 'Orders | SkillForge Admin' }] }),
  ...statusListRoute(STATUSES, ordersQuery),
  pendingComponent: () => <LoadingState label="Loading orders…" />,
  errorComponent: routeError('Could not load orders'),
  component: Orders,
})

function Orders() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const { can } = useStaff()
  const [lookup, setLookup] = useState<string>()
  const orders = useQuery({ ...ordersQuery(trpc, search, lookup), placeholderData: keepPreviousData })
  const refresh = useRefreshAdmin()
  const markPaid = useMutation(
    trpc.admin.orders.markPaid.mutationOptions(reloadThenToast(refresh, 'Order marked as paid')),
  )
  const [refunding, setRefunding] = useState<string | null>(null)
  const [assigning, setAssigning] = useState<string | null>(null)
  const [ending, setEnding] = useState<{ plan: StaffPlan; customer: string } | null>(null)
  const cancel = useMutation(trpc.admin.orders.cancel.mutationOptions(reloadThenToast(refresh, 'Order cancelled')))

  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>
          Orders{' '}
          {orders.data?.openRequests ? (
            <span className={badge({ tone: 'red' })} data-testid="refund-request-count">
              {orders.data.openRequests} refund {orders.data.openRequests === 1 ? 'request' : 'requests'}
            </span>
          ) : null}
        </h1>
        <StatusFilter
          value={search.status}
          statuses={STATUSES}
          labels={ORDER_STATUS_LABELS}
          allLabel="All statuses"
          onChange={(status) => void navigate({ search: { status } })}
        />
      </div>
      <FindForm
        landmark="Find an order"
        label="Order reference or customer e-mail"
        name="lookup"
        placeholder="SF-… or name@example.com"
        searching={lookup !== undefined}
        rule={orderLookup}
        onFind={(next) => {
          setLookup(next)
          void navigate({ search: atPage(1) })
        }}
      />
      <RefundRequests canDecide={can('admin')} />
      <RefundDialog orderId={refunding} onClose={() => setRefunding(null)} />
      <AssignLinesDialog orderId={assigning} onClose={() => setAssigning(null)} />
      <EndMembershipDialog
        plan={ending?.plan ?? null}
        customer={ending?.customer ?? ''}
        onClose={() => setEnding(null)}
        onDone={refresh}
      />
      <PagedList
        query={orders}
        loading="Loading orders…"
        failed="Could not load orders"
        empty={lookup ? `No order with the reference or customer ${lookup}` : 'No orders found'}
        onPage={(next) => void navigate({ search: atPage(next) })}
      >
        {(data) => (
          <AdminTable
            scrollLabel="Orders"
            columns={['Reference', 'Customer', 'Method', 'Status', 'Total', 'Placed', 'Invoice', 'Actions']}
          >
            {data.items.map((order) => {
              const open =
                order.status === 'pending' || order.status === 'awaiting_transfer' || order.status === 'failed'
              const manual = order.method !== 'card'
              return (
                <tr key={order.id} data-testid={`order-${order.reference}`}>
                  <td className={css({ fontFamily: 'mono' })}>{order.reference}</td>
                  <td>
                    <CustomerLink email={order.customerEmail} />
                  </td>
                  <td>{PAYMENT_METHOD_LABELS[order.method]}</td>
                  <td>
                    <span className={badge({ tone: STATUS_TONE[order.status] })}>
                      {ORDER_STATUS_LABELS[order.status]}
                    </span>
                    {order.needsLineAssignment ? (
                      <span className={`${badge({ tone: 'red' })} ${css({ ml: '1' })}`}>Needs line assignment</span>
                    ) : null}
                    {order.plan ? (
                      <span className={css({ display: 'block', mt: '1', fontSize: 'sm', color: 'fg.muted' })}>
                        {order.plan}
                      </span>
                    ) : null}
                  </td>
                  <td>{formatMoney(order.totalMinor, order.currency)}</td>
                  <td>{formatDate(order.createdAt, 'mediumTime')}</td>
                  <td>
                    {order.invoice ? (
                      <span className={css({ display: 'flex', gap: '2', fontSize: 'sm' })}>
                        <Link
                          to="/documents/$kind/$documentId"
                          params={{ kind: 'invoice', documentId: order.invoice.id }}
                          className={css({ color: 'accent', textDecoration: 'underline' })}
                        >
                          {order.invoice.number}
                        </Link>
                        <a
                          href={`/api/documents/invoice/${order.invoice.id}.pdf`}
                          download={`${order.invoice.number}.pdf`}
                          className={css({ color: 'accent', textDecoration: 'underline' })}
                        >
                          PDF
                        </a>
                      </span>
                    ) : null}
                  </td>
                  <td>
                    <div className={css({ display: 'flex', gap: '1', flexWrap: 'wrap', alignItems: 'flex-start' })}>
                      {can('admin') && order.needsLineAssignment ? (
                        <button type="button" className={button({ size: 'sm' })} onClick={() => setAssigning(order.id)}>
                          Assign lines
                        </button>
                      ) : null}
                      {/* The server says where money is left to give back: not a 100% coupon's order, nor a free trial's. */}
                      {can('admin') && order.refundable ? (
                        <button
                          type="button"
                          className={button({ variant: 'outline', size: 'sm' })}
                          onClick={() => setRefunding(order.id)}
                        >
                          Refund
                        </button>
                      ) : null}
                      {/* The server says whether the order's plan is still running (one that ended has nothing to end). */}
                      {can('admin') && order.membership?.canEndNow ? (
                        <button
                          type="button"
                          className={button({ variant: 'outline', size: 'sm' })}
                          onClick={() =>
                            order.membership && setEnding({ plan: order.membership, customer: order.customerEmail })
                          }
                        >
                          End membership
                        </button>
                      ) : null}
                      {can('admin') && open ? (
                        <div className={css({ display: 'flex', gap: '1' })}>
                          {manual ? (
                            <button
                              type="button"
                              className={button({ size: 'sm' })}
                              {...whilePending(markPaid.isPending, 'onClick', () => markPaid.mutate({ id: order.id }))}
                            >
                              Mark paid
                            </button>
                          ) : null}
                          <button
                            type="button"
                            className={button({ variant: 'outline', size: 'sm' })}
                            {...whilePending(cancel.isPending, 'onClick', () => cancel.mutate({ id: order.id }))}
                          >
                            Cancel order
                          </button>
                        </div>
                      ) : null}
                    </div>
                  </td>
                </tr>
              )
            })}
          </AdminTable>
        )}
      </PagedList>
    </>
  )
}

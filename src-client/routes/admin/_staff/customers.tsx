// Customers: staff look up one customer by their account's address and see, on one page, the account, the plan, the
// orders, the courses held now, the service orders and the messages to support (decision 0155). The address is the
// page's state, never its URL (components/admin/FindForm.tsx); the server checks the role. Admins also move a customer
// who lost their mailbox to a new address (decision 0158), answer their privacy requests (decision 0159) and suspend
// an account (decision 0160); staff keep notes about a customer (decision 0161).
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useRouterState } from '@tanstack/react-router'
import { type ReactNode, useEffect, useState } from 'react'
import { AdminTable } from '#client/components/admin/AdminTable.tsx'
import { CustomerEmailChange } from '#client/components/admin/CustomerEmailChange.tsx'
import { CustomerNotes } from '#client/components/admin/CustomerNotes.tsx'
import { CustomerPrivacy } from '#client/components/admin/CustomerPrivacy.tsx'
import { CustomerSuspension } from '#client/components/admin/CustomerSuspension.tsx'
import type { Customer } from '#client/components/admin/customer-page.ts'
import { FindForm } from '#client/components/admin/FindForm.tsx'
import { detailSection, pageHead, pageTitle, rowLink } from '#client/components/admin/styles.ts'
import { badge } from '#client/components/ui/badge.ts'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { EmptyState, ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { ORDER_STATUS_LABELS } from '#client/lib/order-labels.ts'
import { capitalise } from '#shared/constants.ts'
import { formatDate } from '#shared/dates.ts'
import { formatMoney } from '#shared/money.ts'
import { customerLookupInput } from '#shared/schemas/admin.ts'
import { SERVICE_ORDER_STATUS_LABELS } from '#shared/service-orders.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/customers')({
  head: () => ({ meta: [{ title: 'Customers | SkillForge Admin' }] }),
  component: Customers,
})

const muted = css({ fontSize: 'sm', color: 'fg.muted' })
const sections = css({ display: 'grid', gap: '6' })
const facts = css({
  display: 'grid',
  gridTemplateColumns: 'max-content 1fr',
  columnGap: '4',
  rowGap: '1',
  fontSize: 'sm',
  '& dt': { color: 'fg.muted' },
  '& dd': { minW: 0, overflowWrap: 'anywhere' },
})

function Customers() {
  const { trpc } = Route.useRouteContext()
  // Opened from a customer's address on another staff page (components/admin/CustomerLink.tsx): looked up at once.
  // Set after the first render, not as the state's start: the server renders without the browser's history state, so
  // the first render matches the server's whatever the entry holds.
  const linked = useRouterState({ select: (state) => linkedAddress(state.location.state.customer) })
  const [address, setAddress] = useState<string>()
  useEffect(() => {
    if (linked) setAddress(linked)
  }, [linked])
  // Every answer is a read of the customer in the audit log: the page asks when staff search, not each time its window
  // regains focus (a new search, or Try Again, asks again).
  const customer = useQuery({
    ...trpc.admin.customers.find.queryOptions({ customer: address ?? '' }),
    enabled: address !== undefined,
    refetchOnWindowFocus: false,
  })

  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Customers</h1>
      </div>
      <FindForm
        landmark="Find a customer"
        label="Customer e-mail"
        name="customer"
        type="email"
        placeholder="name@example.com"
        searching={address !== undefined}
        prefill={linked}
        rule={customerLookupInput.shape.customer}
        onFind={setAddress}
      />
      {address === undefined ? (
        <EmptyState title="Find a customer by their e-mail address">
          <p className={muted}>Their account, plan, orders, courses, service orders and messages show here.</p>
        </EmptyState>
      ) : customer.isPending ? (
        <LoadingState label="Loading the customer…" />
      ) : customer.isError ? (
        <ErrorState
          title="Could not load the customer"
          error={customer.error}
          onRetry={() => void customer.refetch()}
        />
      ) : customer.data === null ? (
        <EmptyState title={`No account with the address ${address}`}>
          <p className={muted}>A visitor who wrote without an account is in the support inbox.</p>
        </EmptyState>
      ) : (
        <CustomerView customer={customer.data} />
      )}
    </>
  )
}

/** The address a link carried, when it is one (history state is the browser's, not ours). */
function linkedAddress(value: unknown): string | undefined {
  const parsed = customerLookupInput.shape.customer.safeParse(value)
  return parsed.success ? parsed.data : undefined
}

function CustomerView({ customer }: { customer: Customer }) {
  const { account, membership } = customer
  return (
    <div className={sections} data-testid="customer">
      <Part id="customer-account" title={account.name || account.email}>
        <dl className={facts}>
          <dt>E-mail</dt>
          <dd>
            {account.email}{' '}
            <span className={badge({ tone: account.verified ? 'green' : 'grey' })}>
              {account.verified ? 'Verified' : 'Not verified'}
            </span>
          </dd>
          <dt>Joined</dt>
          <dd>{formatDate(account.joinedAt, 'medium')}</dd>
          <dt>Role</dt>
          <dd>{capitalise(account.role.replace('_', ' '))}</dd>
          <dt>Plan</dt>
          <dd data-testid="customer-plan">
            {membership ? `${membership.planName}: ${membership.statusText}` : 'No plan'}
          </dd>
        </dl>
      </Part>

      <Part id="customer-notes" title={`Notes (${customer.notes.length})`}>
        <CustomerNotes customer={customer} />
      </Part>

      <Part id="customer-suspension" title="Account status">
        <CustomerSuspension customer={customer} />
      </Part>

      <Part id="customer-email" title="E-mail address">
        <CustomerEmailChange customer={customer} />
      </Part>

      <Part
        id="customer-orders"
        title={
          customer.moreOrders ? `Orders (the newest ${customer.orders.length})` : `Orders (${customer.orders.length})`
        }
      >
        {customer.orders.length === 0 ? (
          <p className={muted}>No orders.</p>
        ) : (
          <AdminTable stacked columns={['Reference', 'Date', 'Lines', 'Total', 'Status']}>
            {customer.orders.map((order) => (
              <tr key={order.id} data-testid="customer-order">
                <td data-label="Reference">{order.reference}</td>
                <td data-label="Date">{formatDate(order.createdAt, 'medium')}</td>
                <td data-label="Lines">{order.lines.join(', ')}</td>
                <td data-label="Total">
                  {formatMoney(order.totalMinor, order.currency)}
                  {order.refundedMinor ? (
                    <span className={muted}> ({formatMoney(order.refundedMinor, order.currency)} refunded)</span>
                  ) : null}
                </td>
                <td data-label="Status">{ORDER_STATUS_LABELS[order.status]}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </Part>

      <Part id="customer-courses" title={`Courses held now (${customer.courses.length})`}>
        {customer.courses.length === 0 ? (
          <p className={muted}>No course open to them now.</p>
        ) : (
          <ul className={css({ display: 'grid', gap: '1', fontSize: 'sm' })}>
            {customer.courses.map((course) => (
              <li key={course.id} data-testid="customer-course">
                {course.title} <span className={muted}>since {formatDate(course.enrolledAt, 'medium')}</span>
              </li>
            ))}
          </ul>
        )}
      </Part>

      <Part id="customer-services" title={`Service orders (${customer.serviceOrders.length})`}>
        {customer.serviceOrders.length === 0 ? (
          <p className={muted}>No service orders.</p>
        ) : (
          <ul className={css({ display: 'grid', gap: '1', fontSize: 'sm' })}>
            {customer.serviceOrders.map((order) => (
              <li key={order.id} data-testid="customer-service-order">
                <Link to="/admin/service-orders/$id" params={{ id: order.id }} className={rowLink}>
                  {order.serviceTitle ?? order.title}
                </Link>{' '}
                <span className={muted}>
                  {SERVICE_ORDER_STATUS_LABELS[order.status]} · ordered {formatDate(order.createdAt, 'medium')}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Part>

      <Part
        id="customer-messages"
        title={`Messages to support (${customer.messageCounts.open} open, ${customer.messageCounts.answered} answered)`}
      >
        {customer.messages.length === 0 ? (
          <p className={muted}>No messages from this address.</p>
        ) : (
          <ul className={css({ display: 'grid', gap: '1', fontSize: 'sm' })}>
            {customer.messages.map((message) => (
              <li key={message.id} data-testid="customer-message">
                {message.subject}{' '}
                <span className={muted}>
                  sent {formatDate(message.sentAt, 'medium')} ·{' '}
                  {message.answeredAt ? `answered ${formatDate(message.answeredAt, 'medium')}` : 'open'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Part>

      <Part id="customer-privacy" title="Privacy requests">
        <CustomerPrivacy customer={customer} />
      </Part>
    </div>
  )
}

function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <TitledSection id={id} title={title} className={detailSection}>
      {children}
    </TitledSection>
  )
}

// Order history for the account page: items, amounts, currency, method and status of each order, with what can
// still be done with it (OrderActions.tsx). A line says whom it was a gift for (not the buyer's own course: decision
// 0146) and the bundle it was bought in. On a school's own domain, the orders bought from that school, and a link to
// the rest on the marketplace (decision 0150).

import { useQuery } from '@tanstack/react-query'
import { ORDER_STATUS_LABELS, PAYMENT_METHOD_LABELS } from '#client/lib/order-labels.ts'
import { useSite } from '#client/lib/site.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatDate } from '#shared/dates.ts'
import { formatMoney } from '#shared/money.ts'
import { css, cx } from '#styled-system/css'
import { SchoolSiteItems } from '../layout/ElsewhereNote.tsx'
import { borderedCard } from '../ui/card.ts'
import { QueryList } from '../ui/QueryList.tsx'
import { BankDetails, LineRefund, OrderDocuments, PendingOrderActions } from './OrderActions.tsx'

type Order = RouterOutputs['purchases']['orders'][number]

export function OrderHistory() {
  const trpc = useTRPC()
  const orders = useQuery(trpc.purchases.orders.queryOptions())
  const site = useSite()
  return (
    <QueryList query={orders} loading="Loading your orders…" failed="Failed to load your orders" empty="No orders yet">
      {(list) =>
        site ? (
          <SchoolSiteItems
            site={site}
            items={list}
            empty={`No orders from ${site.name} yet.`}
            note={{
              noun: ['order in your account', 'orders in your account'],
              path: '/account#order-history',
              linkText: 'See all your orders',
              testId: 'orders-elsewhere',
            }}
          >
            {(own) => <OrderList orders={own} />}
          </SchoolSiteItems>
        ) : (
          <OrderList orders={list} />
        )
      }
    </QueryList>
  )
}

function OrderList({ orders }: { orders: Order[] }) {
  return (
    <ul className={css({ display: 'flex', flexDir: 'column', gap: '3' })} data-testid="order-history">
      {orders.map((order) => (
        <li key={order.id} data-testid={`buyer-order-${order.reference}`} className={cx(borderedCard, css({ p: '4' }))}>
          <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', justifyContent: 'space-between' })}>
            <span className={css({ fontWeight: 'semibold' })}>Order {order.reference}</span>
            <span data-testid="order-status">{ORDER_STATUS_LABELS[order.status]}</span>
          </div>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {formatDate(order.createdAt, 'medium')} · {PAYMENT_METHOD_LABELS[order.method]} · {order.currency}
          </p>
          <ul className={css({ mt: '2', fontSize: 'sm' })}>
            {order.items.map((item) => (
              <li
                key={item.id}
                className={css({
                  display: 'flex',
                  flexWrap: 'wrap',
                  gap: '2',
                  justifyContent: 'space-between',
                  alignItems: 'center',
                  py: '1',
                })}
              >
                <span>
                  {item.title}
                  {item.bundleTitle ? (
                    <span className={css({ color: 'fg.muted' })} data-testid="line-bundle">
                      {' '}
                      · in the bundle “{item.bundleTitle}”
                    </span>
                  ) : null}
                  {item.gift ? (
                    <span className={css({ color: 'fg.muted' })} data-testid="line-gift">
                      {' '}
                      · Gift for {item.gift.recipientEmail}
                      {item.gift.claimedAt ? `, claimed on ${formatDate(item.gift.claimedAt)}` : ''}
                    </span>
                  ) : null}
                </span>
                <span className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
                  <LineRefund order={order} line={item} />
                  {/* The server says what the line took: a plan in its free trial, nothing (decision 0089). */}
                  {item.freeTrial ? <span className={css({ color: 'fg.muted' })}>Free trial</span> : null}
                  <span data-testid="line-amount">{formatMoney(item.priceMinor, order.currency)}</span>
                </span>
              </li>
            ))}
          </ul>
          <p className={css({ mt: '2', fontWeight: 'bold', textAlign: 'right' })}>
            Total {formatMoney(order.totalMinor, order.currency)}
          </p>
          {order.refundedMinor > 0 ? (
            <p className={css({ textAlign: 'right', fontSize: 'sm', color: 'fg.muted' })}>
              Refunded {formatMoney(order.refundedMinor, order.currency)}
            </p>
          ) : null}
          <PendingOrderActions order={order} />
          <BankDetails order={order} />
          <OrderDocuments order={order} />
          {order.subscription ? (
            // A plan's story: its free trial, then each paid invoice.
            <ul className={css({ mt: '2', fontSize: 'sm', color: 'fg.muted' })} data-testid="subscription-history">
              {order.subscription.trialText ? <li>{order.subscription.trialText}</li> : null}
              {order.subscription.payments.map((payment) => (
                <li key={payment.paidAt}>
                  Paid {formatMoney(payment.amountMinor, payment.currency)} on {formatDate(payment.paidAt)}
                  {payment.refundedMinor > 0
                    ? ` · Refunded ${formatMoney(payment.refundedMinor, payment.currency)}`
                    : ''}
                  {payment.disputedMinor > 0
                    ? ` · Returned to you after a dispute ${formatMoney(payment.disputedMinor, payment.currency)}`
                    : ''}
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ul>
  )
}

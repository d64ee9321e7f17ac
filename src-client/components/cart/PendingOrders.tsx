// The cart page's pending orders. A PayPal order waiting for staff: the cart emptied when the order was created, so the
// order, its reference and its PayPal link stay here (and in My Account) until it is confirmed or cancelled. A card
// payment still open at Stripe (decision 0145): a buyer back from Stripe's page sees what it is for and may resume or
// cancel it; checking out the cart as it is now replaces it, and the cart stays as they left it.
import { useQuery } from '@tanstack/react-query'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { type BuyerOrder, PendingOrderActions } from '../purchases/OrderActions.tsx'

const group = css({ mb: '6', display: 'flex', flexDir: 'column', gap: '3' })
const heading = css({ fontSize: 'lg', fontWeight: 'bold' })
const card = css({ p: '4', bg: 'brand.50', borderRadius: 'card', borderWidth: '1px', borderColor: 'line' })

const whatFor = (order: BuyerOrder) => order.items.map((item) => item.title).join(', ')

export function PendingOrders() {
  const trpc = useTRPC()
  const orders = useQuery(trpc.purchases.orders.queryOptions())
  const pending = (orders.data ?? []).filter((order) => order.status === 'pending')
  const paypal = pending.filter((order) => order.method === 'paypal')
  // A gift's or a renewal's card payment is not the cart's: /account lists those.
  const inProgress = pending.filter((order) => order.resumable && order.fromCart)
  if (paypal.length === 0 && inProgress.length === 0) return null
  return (
    <>
      {inProgress.length > 0 ? (
        <section aria-labelledby="pending-card" className={group}>
          <h2 id="pending-card" className={heading}>
            Payment in progress
          </h2>
          {inProgress.map((order) => (
            <div key={order.id} data-testid={`pending-card-${order.reference}`} className={card}>
              <p>
                You have a card payment in progress for {whatFor(order)} (
                {formatMoney(order.totalMinor, order.currency)}, order <strong>{order.reference}</strong>). Resume it to
                pay for exactly that, or cancel it. Checking out your cart as it is now replaces it.
              </p>
              <PendingOrderActions order={order} />
            </div>
          ))}
        </section>
      ) : null}
      {paypal.length > 0 ? (
        <section aria-labelledby="pending-paypal" className={group}>
          <h2 id="pending-paypal" className={heading}>
            Awaiting PayPal confirmation
          </h2>
          {paypal.map((order) => (
            <div key={order.id} data-testid={`pending-paypal-${order.reference}`} className={card}>
              <p>
                Order <strong>{order.reference}</strong> for {formatMoney(order.totalMinor, order.currency)} (
                {whatFor(order)}) is pending until we confirm your PayPal payment. Quote the reference with your
                payment.
              </p>
              <PendingOrderActions order={order} />
            </div>
          ))}
        </section>
      ) : null}
    </>
  )
}

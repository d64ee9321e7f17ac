// The cart page's PayPal orders waiting for staff: the cart emptied when the order was created, so the order, its
// reference and its PayPal link stay here (and in My Account) until it is confirmed or cancelled.
import { useQuery } from '@tanstack/react-query'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { PendingOrderActions } from '../purchases/OrderActions.tsx'

export function PendingPaypalOrders() {
  const trpc = useTRPC()
  const orders = useQuery(trpc.purchases.orders.queryOptions())
  const pending = (orders.data ?? []).filter((order) => order.status === 'pending' && order.method === 'paypal')
  if (pending.length === 0) return null
  return (
    <section
      aria-labelledby="pending-paypal"
      className={css({ mb: '6', display: 'flex', flexDir: 'column', gap: '3' })}
    >
      <h2 id="pending-paypal" className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
        Awaiting PayPal confirmation
      </h2>
      {pending.map((order) => (
        <div
          key={order.id}
          data-testid={`pending-paypal-${order.reference}`}
          className={css({ p: '4', bg: 'brand.50', borderRadius: 'card', borderWidth: '1px', borderColor: 'line' })}
        >
          <p>
            Order <strong>{order.reference}</strong> for {formatMoney(order.totalMinor, order.currency)} (
            {order.items.map((item) => item.title).join(', ')}) is pending until we confirm your PayPal payment. Quote
            the reference with your payment.
          </p>
          <PendingOrderActions order={order} />
        </div>
      ))}
    </section>
  )
}

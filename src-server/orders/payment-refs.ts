// Where an order's money came from at Stripe: what reading the processor's fee of its payment starts from.
import type { DB } from '../kernel/db.ts'

export function stripeRefsOfOrder(db: DB, orderId: string) {
  return db
    .selectFrom('orders')
    .select(['id', 'currency', 'stripe_payment_intent_id', 'stripe_session_id'])
    .where('id', '=', orderId)
    .executeTakeFirst()
}

// A course bought by card through the real webhook, and the bank disputing that payment: for the tests of what a
// dispute does to creators' shares and payouts (decision 0125, 0127).
import { expect } from 'vitest'
import type { SoldCourse } from './earnings.ts'
import { createUser } from './factories.ts'
import { type PaymentsServer, payCartByCard } from './payments-server.ts'
import { shopCaller } from './shop.ts'

/** A new buyer pays the course by card through the webhook; the order's payment intent, amount, reference, line. */
export async function payCourseByCard(shop: PaymentsServer, course: SoldCourse) {
  const db = shop.database.db
  const buyer = await createUser(db)
  const caller = await shopCaller(db, buyer, shop.payments)
  await caller.cart.add({ kind: 'course', courseId: course.id })
  const orderId = await payCartByCard(shop.fake, caller)
  const order = await db
    .selectFrom('orders')
    .select(['reference', 'captured_minor', 'stripe_payment_intent_id'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()
  const line = await db.selectFrom('order_items').select('id').where('order_id', '=', orderId).executeTakeFirstOrThrow()
  const share = await db
    .selectFrom('earning_shares')
    .select('creator_minor')
    .where('order_item_id', '=', line.id)
    .executeTakeFirstOrThrow()
  return { orderId, ...order, lineId: line.id, shareMinor: share.creator_minor }
}

export type CardSale = Awaited<ReturnType<typeof payCourseByCard>>

/** Stripe tells the webhook the bank opened or closed a dispute of the sale's payment (the whole amount by default). */
export async function disputeSale(
  shop: PaymentsServer,
  sale: CardSale,
  event: 'created' | 'closed',
  status: string,
  amount = sale.captured_minor,
) {
  const id = `dp_hold_${sale.orderId.slice(0, 8)}`
  const body = shop.fake.disputeOf(sale.stripe_payment_intent_id!, status, amount, { id })
  expect(await shop.fake.deliver(`charge.dispute.${event}`, body)).toBe(200)
}

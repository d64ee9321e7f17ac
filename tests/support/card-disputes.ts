// A course bought by card through the real webhook, and the bank disputing that payment: for the tests of what a
// dispute does to creators' shares and payouts (decision 0125, 0127).
import { expect } from 'vitest'
import type { SoldCourse } from './earnings.ts'
import { createUser } from './factories.ts'
import { type PaymentsServer, payCartByCard } from './payments-server.ts'
import { shopCaller } from './shop.ts'

/** A new buyer pays the course by card through the webhook; the order's payment intent, amount, reference, line. */
export async function payCourseByCard(shop: PaymentsServer, course: SoldCourse) {
  const { lines, ...sale } = await payCoursesByCard(shop, [course])
  return { ...sale, lineId: lines[0]!.id, shareMinor: lines[0]!.shareMinor }
}

/** A new buyer pays the courses in one order by card through the webhook; each line with its creator's share. */
export async function payCoursesByCard(shop: PaymentsServer, courses: SoldCourse[]) {
  const db = shop.database.db
  const buyer = await createUser(db)
  const caller = await shopCaller(db, buyer, shop.payments)
  for (const course of courses) await caller.cart.add({ kind: 'course', courseId: course.id })
  const orderId = await payCartByCard(shop.fake, caller)
  const order = await db
    .selectFrom('orders')
    .select(['reference', 'captured_minor', 'stripe_payment_intent_id'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()
  const lines = await db
    .selectFrom('order_items as i')
    .innerJoin('earning_shares as s', 's.order_item_id', 'i.id')
    .select(['i.id', 'i.course_id', 's.creator_minor'])
    .where('i.order_id', '=', orderId)
    .execute()
  return {
    orderId,
    buyer,
    caller,
    ...order,
    lines: lines.map((line) => ({ id: line.id, courseId: line.course_id!, shareMinor: line.creator_minor })),
  }
}

export type CardSale = Awaited<ReturnType<typeof payCourseByCard>>
export type CardOrder = Awaited<ReturnType<typeof payCoursesByCard>>

/** Stripe tells the webhook the bank opened or closed a dispute of the sale's payment (the whole amount by default). */
export async function disputeSale(
  shop: PaymentsServer,
  sale: Pick<CardSale, 'orderId' | 'stripe_payment_intent_id' | 'captured_minor'>,
  event: 'created' | 'closed',
  status: string,
  amount = sale.captured_minor,
) {
  const id = `dp_hold_${sale.orderId.slice(0, 8)}`
  const body = shop.fake.disputeOf(sale.stripe_payment_intent_id!, status, amount, { id })
  expect(await shop.fake.deliver(`charge.dispute.${event}`, body)).toBe(200)
}

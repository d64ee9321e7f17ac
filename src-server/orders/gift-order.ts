// The order of a gift (issue 32): one course bought for someone else, at the catalogue's price of that moment. It
// stands beside the cart's pending order (source 'gift'), never touches the cart, and its line's key names the gift
// order, so paying it takes nothing out of the buyer's own cart. promotions/gifts.ts keeps who it is for.
import type { PaymentMethod } from '../../db/types.ts'
import type { Currency } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { type Billing, type CreatedOrder, insertPendingOrder, orderReference } from './create.ts'

export interface GiftOrderInput {
  userId: string
  course: { id: string; title: string; instructorName: string | null; priceMinor: number; currency: Currency }
  method: PaymentMethod
  referencePrefix: string
  billing?: Billing
}

export async function createGiftOrder(trx: DB, input: GiftOrderInput): Promise<CreatedOrder & { orderItemId: string }> {
  const reference = orderReference(input.referencePrefix)
  const { course } = input
  // Nothing to pay (a free course, a 100 % discount): no rail, whichever the buyer picked.
  const method: PaymentMethod = course.priceMinor === 0 ? 'free' : input.method
  const order = await insertPendingOrder(trx, {
    userId: input.userId,
    reference,
    currency: course.currency,
    method,
    totalMinor: course.priceMinor,
    billing: input.billing,
    source: 'gift',
  })
  const line = {
    kind: 'course' as const,
    key: `gift:${order.id}`,
    title: course.title,
    detail: 'Gift',
    priceMinor: course.priceMinor,
    currency: course.currency,
    recurringInterval: null,
    billingCycle: null,
    courseId: course.id,
    packageId: null,
    planId: null,
  }
  const item = await trx
    .insertInto('order_items')
    .values({
      order_id: order.id,
      kind: 'course',
      course_id: course.id,
      item_key: line.key,
      title: line.title,
      detail: line.detail,
      unit_price_minor: line.priceMinor,
      billing_cycle: null,
      recurring_interval: null,
      service_package_id: null,
      plan_id: null,
      refund_id: null,
      refunded_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return {
    id: order.id,
    reference,
    currency: course.currency,
    method,
    totalMinor: course.priceMinor,
    lines: [line],
    reused: false,
    stripeSessionId: null,
    orderItemId: item.id,
  }
}

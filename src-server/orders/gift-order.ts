// The order of a gift (issue 32): one course bought for someone else, at the catalogue's price of that moment. It
// stands beside the cart's pending order (source 'gift'), never touches the cart, and its line's key names the gift
// order, so paying it takes nothing out of the buyer's own cart. promotions/gifts.ts keeps who it is for.
import type { PaymentMethod } from '../../db/types.ts'
import type { Currency } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { type Billing, type CreatedOrder, insertPendingOrder, orderReference } from './create.ts'

export interface GiftOrderInput {
  userId: string
  /** A course, or a plan's prepaid term (one payment, no renewal): `planId` with the term's price. */
  course: {
    id: string
    title: string
    instructorName: string | null
    priceMinor: number
    currency: Currency
    planId?: string
    detail?: string
  }
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
  const plan = course.planId ?? null
  const line = {
    kind: plan ? ('plan' as const) : ('course' as const),
    key: `gift:${order.id}`,
    title: course.title,
    detail: course.detail ?? 'Gift',
    priceMinor: course.priceMinor,
    currency: course.currency,
    recurringInterval: null,
    billingCycle: null,
    courseId: plan ? null : course.id,
    packageId: null,
    planId: plan,
  }
  const item = await trx
    .insertInto('order_items')
    .values({
      order_id: order.id,
      kind: line.kind,
      course_id: line.courseId,
      item_key: line.key,
      title: line.title,
      detail: line.detail,
      unit_price_minor: line.priceMinor,
      billing_cycle: null,
      recurring_interval: null,
      service_package_id: null,
      plan_id: plan,
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

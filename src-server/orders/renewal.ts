// The renewal order of a PayPal or bank-transfer membership: a pending order for one more billing period of the
// plan, at the plan's price of that moment, paid as the first one was (staff confirm it as any manual payment), less
// a plan coupon's share while the coupon's duration covers the renewal (promotions/plan-coupon-renewals.ts).
import type { BillingCycle, PaymentMethod } from '../../db/types.ts'
import type { DB } from '../kernel/db.ts'
import { insertPendingOrder, orderReference } from './create.ts'

export interface RenewalOrder {
  userId: string
  planId: string
  planName: string
  billingCycle: BillingCycle
  method: Exclude<PaymentMethod, 'card'>
  priceMinor: number
  currency: 'USD' | 'GBP'
  referencePrefix: string
  /** A plan coupon still covering this renewal (its code and the amount off, already capped at the price). */
  discount?: { code: string; minor: number }
}

/** The order that started a membership, as its renewals need it: how it was paid, when, and its plan line's discount. */
export function firstPlanOrder(db: DB, orderId: string) {
  return db
    .selectFrom('orders as o')
    .leftJoin('order_items as i', (join) => join.onRef('i.order_id', '=', 'o.id').on('i.kind', '=', 'plan'))
    .select(['o.method', 'o.paid_at', 'o.coupon_code', 'i.discount_minor as plan_discount_minor'])
    .where('o.id', '=', orderId)
    .executeTakeFirst()
}

export async function createRenewalOrder(trx: DB, renewal: RenewalOrder): Promise<{ id: string; reference: string }> {
  const reference = orderReference(renewal.referencePrefix)
  const order = await insertPendingOrder(trx, {
    userId: renewal.userId,
    reference,
    currency: renewal.currency,
    method: renewal.method,
    totalMinor: renewal.priceMinor,
    discount: renewal.discount && renewal.discount.minor > 0 ? renewal.discount : undefined,
    // Beside the cart's pending order, not instead of it (one pending order per cart counts cart orders only).
    source: 'renewal',
  })
  await trx
    .insertInto('order_items')
    .values({
      order_id: order.id,
      kind: 'plan',
      plan_id: renewal.planId,
      item_key: `plan:${renewal.planId}`,
      billing_cycle: renewal.billingCycle,
      recurring_interval: renewal.billingCycle === 'annual' ? 'year' : 'month',
      title: renewal.planName,
      detail: `Renewal, billed ${renewal.billingCycle === 'annual' ? 'annually' : 'monthly'}`,
      unit_price_minor: renewal.priceMinor,
      discount_minor: renewal.discount?.minor ?? 0,
    })
    .execute()
  return { id: order.id, reference }
}

// The renewal order of a PayPal or bank-transfer membership: a pending order for one more billing period of the
// plan, at the plan's price of that moment, paid as the first one was (staff confirm it as any manual payment).
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
}

export async function createRenewalOrder(trx: DB, renewal: RenewalOrder): Promise<{ id: string; reference: string }> {
  const reference = orderReference(renewal.referencePrefix)
  const order = await insertPendingOrder(trx, {
    userId: renewal.userId,
    reference,
    currency: renewal.currency,
    method: renewal.method,
    totalMinor: renewal.priceMinor,
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
    })
    .execute()
  return { id: order.id, reference }
}

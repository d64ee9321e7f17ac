// Turns one currency group of the cart into a pending order, snapshotting the prices of that moment.
import { randomBytes } from 'node:crypto'
import type { PaymentMethod } from '../../db/types.ts'
import type { Currency } from '../../src-shared/money.ts'
import { CART_MESSAGES } from '../../src-shared/schemas/cart.ts'
import { type CartLine, listCartLines } from '../cart/lines.ts'
import type { DB } from '../db.ts'
import { DomainError } from '../errors.ts'
import { inTransaction } from './lock.ts'

export interface CreatedOrder {
  id: string
  reference: string
  currency: Currency
  method: PaymentMethod
  totalMinor: number
  lines: CartLine[]
}

/** An order prefix and the current time (spec), plus a short random tail so two orders never collide. */
export function orderReference(prefix: string, now = new Date()): string {
  return `${prefix}-${now.getTime().toString(36).toUpperCase()}-${randomBytes(2).toString('hex').toUpperCase()}`
}

export interface NewOrder {
  userId: string
  currency: Currency
  method: PaymentMethod
  referencePrefix: string
}

/** A pending order holding the cart's lines of one currency, at the catalogue's prices of this moment. */
export async function createFromCart(db: DB, { userId, currency, method, referencePrefix }: NewOrder) {
  return inTransaction(db, async (trx): Promise<CreatedOrder> => {
    const lines = (await listCartLines(trx, userId)).filter((line) => line.currency === currency)
    if (lines.length === 0) throw new DomainError('invalid', CART_MESSAGES.empty)
    const subtotal = lines.reduce((sum, line) => sum + line.priceMinor, 0)
    const reference = orderReference(referencePrefix)
    const order = await insertPendingOrder(trx, { userId, reference, currency, method, totalMinor: subtotal })
    await trx
      .insertInto('order_items')
      .values(
        lines.map((line) => ({
          order_id: order.id,
          kind: line.kind,
          course_id: line.courseId,
          service_package_id: line.packageId,
          plan_id: line.planId,
          item_key: line.key,
          billing_cycle: line.billingCycle,
          recurring_interval: line.recurringInterval,
          title: line.title,
          detail: line.detail,
          unit_price_minor: line.priceMinor,
        })),
      )
      .execute()
    return { id: order.id, reference, currency, method, totalMinor: subtotal, lines }
  })
}

/** A pending order row (no tax yet: subtotal and total are the same); its lines are the caller's. */
export function insertPendingOrder(
  db: DB,
  order: { userId: string; reference: string; currency: Currency; method: PaymentMethod; totalMinor: number },
) {
  return db
    .insertInto('orders')
    .values({
      user_id: order.userId,
      reference: order.reference,
      currency: order.currency,
      method: order.method,
      subtotal_minor: order.totalMinor,
      tax_minor: 0,
      total_minor: order.totalMinor,
      stripe_session_id: null,
      stripe_subscription_id: null,
      paid_at: null,
      cancelled_at: null,
      status_changed_by: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/** The Stripe Checkout Session opened for a card order: how webhooks and the success page find the order. */
export async function attachStripeSession(db: DB, orderId: string, sessionId: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ stripe_session_id: sessionId, updated_at: new Date() })
    .where('id', '=', orderId)
    .execute()
}

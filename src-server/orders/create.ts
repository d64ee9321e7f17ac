// Turns one currency group of the cart into a pending order, snapshotting the prices of that moment.
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database, PaymentMethod } from '../../db/types.ts'
import type { Currency } from '../../src-shared/money.ts'
import { CART_MESSAGES } from '../../src-shared/schemas/cart.ts'
import { type CartLine, listCartLines } from '../cart/lines.ts'
import { DomainError } from '../errors.ts'

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

export async function createOrderFromCart(
  db: Kysely<Database>,
  userId: string,
  currency: Currency,
  method: PaymentMethod,
  referencePrefix: string,
): Promise<CreatedOrder> {
  return db.transaction().execute(async (trx) => {
    const lines = (await listCartLines(trx, userId)).filter((line) => line.currency === currency)
    if (lines.length === 0) throw new DomainError('invalid', CART_MESSAGES.empty)
    const subtotal = lines.reduce((sum, line) => sum + line.priceMinor, 0)
    const reference = orderReference(referencePrefix)
    const order = await trx
      .insertInto('orders')
      .values({
        user_id: userId,
        reference,
        currency,
        method,
        subtotal_minor: subtotal,
        tax_minor: 0,
        total_minor: subtotal,
        stripe_session_id: null,
        stripe_subscription_id: null,
        paid_at: null,
        cancelled_at: null,
        status_changed_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
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

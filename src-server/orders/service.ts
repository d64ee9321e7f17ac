// Order state changes. markOrderPaid and cancelOrder are what the admin Orders page calls (staff checked by
// the caller's staffProcedure); every path to 'paid' goes through fulfilOrder, so fulfilment happens once.

import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { DomainError } from '../errors.ts'
import { type FulfilResult, fulfilOrder, inTransaction } from './fulfil.ts'

type DB = Kysely<Database>
export interface OrderActor {
  id: string
}

/**
 * Staff confirm a PayPal or bank-transfer payment. Idempotent: a paid order stays paid, fulfilled once.
 * Given a transaction it joins it, so the caller's audit record commits with the change.
 */
export async function markOrderPaid(db: DB, orderId: string, actor: OrderActor): Promise<FulfilResult> {
  const result = await fulfilOrder(db, orderId, { source: 'staff', actorId: actor.id })
  if (result === 'not_found') throw new DomainError('not_found', 'Order not found')
  if (result === 'not_payable') {
    throw new DomainError('invalid', 'A cancelled order cannot be marked as paid')
  }
  return result
}

/** Staff cancel an unpaid order. A paid order cannot be cancelled here (refunds are done in Stripe). */
export async function cancelOrder(db: DB, orderId: string, actor: OrderActor): Promise<'cancelled'> {
  return inTransaction(db, async (trx) => {
    const order = await trx
      .selectFrom('orders')
      .select(['id', 'status'])
      .where('id', '=', orderId)
      .forUpdate()
      .executeTakeFirst()
    if (!order) throw new DomainError('not_found', 'Order not found')
    if (order.status === 'paid') throw new DomainError('invalid', 'A paid order cannot be cancelled')
    if (order.status !== 'cancelled') {
      const now = new Date()
      await trx
        .updateTable('orders')
        .set({ status: 'cancelled', cancelled_at: now, updated_at: now, status_changed_by: actor.id })
        .where('id', '=', order.id)
        .execute()
    }
    return 'cancelled' as const
  })
}

/** 'I've Made the Transfer': the order now awaits the transfer and its items leave the cart. */
export async function confirmBankTransfer(db: DB, userId: string, orderId: string) {
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom('orders')
      .select(['id', 'status', 'method', 'reference'])
      .where('id', '=', orderId)
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst()
    if (order?.method !== 'bank_transfer') {
      throw new DomainError('not_found', 'Order not found')
    }
    if (order.status === 'pending') {
      await trx
        .updateTable('orders')
        .set({ status: 'awaiting_transfer', updated_at: new Date() })
        .where('id', '=', order.id)
        .execute()
    }
    const keys = await trx.selectFrom('order_items').select('item_key').where('order_id', '=', order.id).execute()
    if (keys.length) {
      await trx
        .deleteFrom('cart_items')
        .where('user_id', '=', userId)
        .where(
          'item_key',
          'in',
          keys.map((row) => row.item_key),
        )
        .execute()
    }
    return { reference: order.reference, status: order.status === 'pending' ? 'awaiting_transfer' : order.status }
  })
}

/** A card payment that could not start or that Stripe reports failed. Never downgrades a paid order. */
export async function markOrderFailed(db: DB, orderId: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ status: 'failed', updated_at: new Date() })
    .where('id', '=', orderId)
    .where('status', '=', 'pending')
    .execute()
}

export { listOrdersForStaff } from './queries.ts'

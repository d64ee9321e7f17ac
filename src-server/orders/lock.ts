// Transactions for order changes: every transition reads the order under a row lock (SELECT … FOR UPDATE), so a
// webhook, its retries, the success page and staff can race on one order and it changes once.
import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'

/** The order, locked until the end of the transaction; `userId` limits it to that buyer's orders. */
export function lockOrder(trx: Transaction<Database>, orderId: string, userId?: string) {
  let query = trx
    .selectFrom('orders')
    .select([
      'id',
      'user_id',
      'status',
      'method',
      'reference',
      'currency',
      'total_minor',
      'captured_minor',
      'refunded_minor',
      'stripe_session_id',
      'stripe_payment_intent_id',
    ])
    .where('id', '=', orderId)
  if (userId) query = query.where('user_id', '=', userId)
  return query.forUpdate().executeTakeFirst()
}

export type LockedOrder = NonNullable<Awaited<ReturnType<typeof lockOrder>>>

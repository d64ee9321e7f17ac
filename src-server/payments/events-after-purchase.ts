// Stripe events about what happens after a checkout: a session Stripe expired, refunds made in the Stripe dashboard
// and disputes. Each is idempotent and reads the order's current state under its row lock (orders/ does).
import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import { expire } from '../orders/pending.ts'
import { orderOfSession } from './checkout-session.ts'
import type { IgnoredReason } from './events.ts'
import { checkoutSessionSchema } from './stripe-schemas.ts'

type Applied = { outcome: 'processed' } | { outcome: 'ignored'; reason: IgnoredReason }
const PROCESSED: Applied = { outcome: 'processed' }
const ignored = (reason: IgnoredReason): Applied => ({ outcome: 'ignored', reason })

/** checkout.session.expired: the order of an unpaid session becomes Expired (a paid or closed order stays). */
export async function sessionExpired(trx: Transaction<Database>, object: unknown): Promise<Applied> {
  const session = checkoutSessionSchema.safeParse(object)
  if (!session.success) return ignored('malformed')
  const order = await orderOfSession(trx, session.data)
  if (!order) return ignored('not_ours')
  await expire(trx, order.id)
  return PROCESSED
}

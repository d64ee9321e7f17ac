// Checkout recovery (issue 32): a buyer's opt-in ("E-mail me a reminder about this cart", never pre-ticked) to one
// reminder about an order left unpaid. promotions/ is the only writer of `cart_reminders`. The sweep settles each row
// once with a conditional update (two sweeps at once settle it once); the unsubscribe link's token is in the e-mail
// only (the row keeps its SHA-256).
import { sql } from 'kysely'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { randomToken, sha256Hex } from '../kernel/random-token.ts'

/** A card checkout lives 24 hours (Stripe's default); a PayPal or bank order left that long counts as abandoned. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000
/** At most one reminder per buyer in this window, whatever orders their cart went through. */
export const ONE_REMINDER_PER_MS = 7 * 24 * 60 * 60 * 1000

export type ReminderOutcome = 'sent' | 'bought' | 'duplicate' | 'unsubscribed'

const hash = sha256Hex

/** The tick at checkout: one row per order (asking again changes nothing). */
export async function optIn(db: DB, orderId: string, userId: string, now = clock.now()): Promise<void> {
  await db
    .insertInto('cart_reminders')
    .values({ order_id: orderId, user_id: userId, opted_in_at: now })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .execute()
}

/**
 * Unsettled opt-ins whose order was left: a card checkout expired (Stripe's event or the 24-hour job) or failed, or
 * a PayPal or bank order still unpaid after 24 hours. With whether the buyer paid any order since it was made.
 */
export function listDueReminders(db: DB, now = clock.now(), limit = 200) {
  return dueReminders(db, now).orderBy('r.opted_in_at').limit(limit).execute()
}

/** The order's opt-in when it is due now (its checkout was left and it is unsettled); undefined otherwise. */
export function findDueReminder(db: DB, orderId: string, now = clock.now()) {
  return dueReminders(db, now).where('r.order_id', '=', orderId).executeTakeFirst()
}

export type DueReminder = NonNullable<Awaited<ReturnType<typeof findDueReminder>>>

function dueReminders(db: DB, now: Date) {
  const abandonedBefore = new Date(now.getTime() - ABANDONED_AFTER_MS)
  return db
    .selectFrom('cart_reminders as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.id', 'r.user_id', 'r.order_id', 'o.created_at as order_created_at', 'u.email', 'u.first_name'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('orders as later')
            .select(sql`1`.as('one'))
            .whereRef('later.user_id', '=', 'r.user_id')
            .where('later.paid_at', 'is not', null)
            .whereRef('later.paid_at', '>=', 'o.created_at'),
        )
        .as('bought_since'),
    )
    .where('r.settled_at', 'is', null)
    .where((eb) =>
      eb.or([
        // A card checkout that expired or failed (a PayPal or bank order expires only days after its reminder).
        eb.and([eb('o.status', 'in', ['expired', 'failed']), eb('o.method', '=', 'card')]),
        eb.and([
          // A bank order whose buyer said "I've made the transfer" (awaiting_transfer) is not left: no reminder.
          eb('o.status', '=', 'pending'),
          eb('o.method', 'in', ['paypal', 'bank_transfer']),
          eb('o.created_at', '<', abandonedBefore),
        ]),
      ]),
    )
}

/** Whether the buyer was sent a reminder in the window before `now`. */
export async function remindedRecently(db: DB, userId: string, now = clock.now()): Promise<boolean> {
  const row = await db
    .selectFrom('cart_reminders')
    .select('id')
    .where('user_id', '=', userId)
    .where('outcome', '=', 'sent')
    .where('settled_at', '>', new Date(now.getTime() - ONE_REMINDER_PER_MS))
    .executeTakeFirst()
  return Boolean(row)
}

/**
 * Settles the opt-in once. For 'sent' it returns the unsubscribe token for the e-mail; null when it was settled
 * meanwhile (another sweep): then nothing is sent.
 */
export async function settle(
  db: DB,
  reminderId: string,
  outcome: ReminderOutcome,
  now = clock.now(),
): Promise<{ unsubscribeToken: string | null } | null> {
  const token = outcome === 'sent' ? randomToken(25) : null
  const row = await db
    .updateTable('cart_reminders')
    .set({ settled_at: now, outcome, unsubscribe_hash: token ? hash(token) : null })
    .where('id', '=', reminderId)
    .where('settled_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  return row ? { unsubscribeToken: token } : null
}

/** The List-Unsubscribe link: the buyer's open opt-ins are settled as unsubscribed. False for an unknown token. */
export async function unsubscribe(db: DB, token: string, now = clock.now()): Promise<boolean> {
  const row = await db
    .selectFrom('cart_reminders')
    .select('user_id')
    .where('unsubscribe_hash', '=', hash(token))
    .executeTakeFirst()
  if (!row) return false
  await db
    .updateTable('cart_reminders')
    .set({ settled_at: now, outcome: 'unsubscribed' })
    .where('user_id', '=', row.user_id)
    .where('settled_at', 'is', null)
    .execute()
  return true
}

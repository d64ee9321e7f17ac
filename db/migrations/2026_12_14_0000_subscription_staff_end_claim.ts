// Frozen: staff's End membership at the period's end is claimed before Stripe is asked (decision 0096, 2026-12-14),
// so two admins who press it at once make one change, one audit entry and one mail; the second is told someone is
// ending it. The claim is let go when the change commits or fails, and lapses after a minute should the server stop
// in between. Never import app code.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('staff_end_claimed_at', 'timestamptz').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('staff_end_claimed_at').execute()
}

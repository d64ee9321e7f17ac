// Frozen: what became of each Stripe event, as of 2026-11-23. Never import application code here.
// Events the shop did not create (a Payment Link on the same account) or cannot read are acknowledged and kept as
// 'ignored' with a reason, so they are visible and never retried.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('processed_stripe_events')
    .addColumn('outcome', 'text', (c) =>
      c.notNull().defaultTo('processed').check(sql`outcome in ('processed','ignored')`),
    )
    .addColumn('reason', 'text')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('processed_stripe_events').dropColumn('reason').dropColumn('outcome').execute()
}

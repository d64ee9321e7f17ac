// Frozen: the erasure deletes the person's Stripe customers after their account is erased (issue 28, decision 0066).
// Null while a customer is still to be deleted at Stripe (the deletion job retries); set once every one is gone.
// Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account_deletions').addColumn('stripe_deleted_at', 'timestamptz').execute()
  await sql`create index account_deletions_stripe_due_idx on account_deletions (erased_at)
    where erased_at is not null and stripe_deleted_at is null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account_deletions').dropColumn('stripe_deleted_at').execute()
}

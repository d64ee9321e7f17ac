// Frozen: when a person moves their account to another e-mail address, the Stripe customers their plans were billed to
// are given it too, by a job after the move has committed (a Stripe outage never holds the move back). The moment of
// the move waits here until the job has done it. Never import application code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('stripe_email_due_at', 'timestamptz').execute()
  await sql`create index users_stripe_email_due_idx on users (stripe_email_due_at) where stripe_email_due_at is not null`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists users_stripe_email_due_idx`.execute(db)
  await db.schema.alterTable('users').dropColumn('stripe_email_due_at').execute()
}

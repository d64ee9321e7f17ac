// Frozen: the plan change a member was shown (decision 0135). changePlan took the proration date from the client, so a
// member could prorate at any moment of the period (a second before its end: an upgrade for nothing; the period's
// start: a downgrade credited the whole period). The preview's date is kept here, one row per subscription (the latest
// preview replaces it), and the change uses it once, within minutes. Never import application code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table plan_change_quotes (
    subscription_id uuid primary key references subscriptions(id) on delete cascade,
    plan_id text not null references plans(id) on delete cascade,
    billing_cycle text not null check (billing_cycle in ('monthly','annual')),
    proration_at timestamptz not null,
    amount_due_minor integer not null,
    quoted_at timestamptz not null
  )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists plan_change_quotes`.execute(db)
}

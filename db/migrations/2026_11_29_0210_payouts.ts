// Frozen: creators' payout accounts (Stripe Connect Express) and monthly payouts (issue 31). Never import
// application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // What Stripe last said of the creator's connected account (account.updated), and when it said it.
  await db.schema
    .createTable('creator_payout_accounts')
    .addColumn('creator_id', 'uuid', (c) => c.primaryKey().references('users.id'))
    .addColumn('stripe_account_id', 'text', (c) => c.notNull().unique())
    .addColumn('charges_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('payouts_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('details_submitted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('requirements_due', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('requirements_deadline', 'timestamptz')
    .addColumn('disabled_reason', 'text')
    .addColumn('stripe_updated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  // One payout per creator, month and currency: the row is the claim (two workers cannot both make it) and its id
  // the Stripe idempotency key's tail, so a retried transfer is the same transfer.
  await db.schema
    .createTable('creator_payouts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('month', 'text', (c) => c.notNull().check(sql`month ~ '^[0-9]{4}-[0-9]{2}$'`))
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('USD','GBP')`))
    .addColumn('amount_minor', 'integer', (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending','sending','paid','failed','reversed')`),
    )
    .addColumn('stripe_account_id', 'text', (c) => c.notNull())
    .addColumn('stripe_transfer_id', 'text', (c) => c.unique())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('paid_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('creator_payouts_once', ['creator_id', 'month', 'currency'])
    .execute()
  await sql`create index creator_payouts_status_idx on creator_payouts (status, created_at)`.execute(db)

  // The owner can pause payouts (one row of settings).
  await db.schema
    .createTable('payout_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('paused', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('paused_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`insert into payout_settings (id) values (1)`.execute(db)
}

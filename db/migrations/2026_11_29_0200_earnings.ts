// Frozen: creators' earnings (issue 31) — each paid course line's split, stored once, and a double-entry ledger that
// is append-only and balanced per transaction and currency. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // The split of one paid course line, allocated once at the sale and reused by every reversal.
  await db.schema
    .createTable('earning_shares')
    .addColumn('order_item_id', 'uuid', (c) => c.primaryKey().references('order_items.id'))
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id'))
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('USD','GBP')`))
    .addColumn('net_minor', 'integer', (c) => c.notNull().check(sql`net_minor >= 0`))
    // The platform's fee in basis points of the creator's plan at the moment of sale.
    .addColumn('fee_basis_points', 'integer', (c) => c.notNull().check(sql`fee_basis_points between 0 and 10000`))
    .addColumn('platform_fee_minor', 'integer', (c) => c.notNull().check(sql`platform_fee_minor >= 0`))
    .addColumn('processor_fee_minor', 'integer', (c) => c.notNull().defaultTo(0).check(sql`processor_fee_minor >= 0`))
    .addColumn('creator_minor', 'integer', (c) => c.notNull())
    .addColumn('plan_id', 'text')
    .addColumn('hold_until', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'earning_shares_split_check',
      sql`platform_fee_minor + processor_fee_minor + creator_minor = net_minor`,
    )
    .execute()
  await sql`create index earning_shares_creator_idx on earning_shares (creator_id, created_at)`.execute(db)
  await sql`create index earning_shares_hold_idx on earning_shares (hold_until)`.execute(db)

  // One row per balanced posting; its key makes posting the same fact twice a no-op (webhook replays, job retries).
  await db.schema
    .createTable('ledger_transactions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`kind in ('sale','refund','dispute','hold_release','processor_fee','pool_share','payout','transfer_reversal','adjustment')`,
        ),
    )
    // What caused it: an order line, a refund, a Stripe object id, a month…
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('memo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  // Signed amounts: what the platform owes a creator is positive on the creator's accounts; the counter-accounts
  // (customer payments, platform fees, processor fees, premium pool, paid out) take the other side.
  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('transaction_id', 'bigint', (c) => c.notNull().references('ledger_transactions.id'))
    .addColumn('account', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`account in ('creator_pending','creator_available','creator_paid_out','customer_payments','platform_fees','processor_fees','premium_pool')`,
        ),
    )
    .addColumn('creator_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('USD','GBP')`))
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('ledger_entries_creator_check', sql`(account like 'creator_%') = (creator_id is not null)`)
    .execute()
  await sql`create index ledger_entries_creator_idx on ledger_entries (creator_id, currency, account) where creator_id is not null`.execute(
    db,
  )
  await sql`create index ledger_entries_transaction_idx on ledger_entries (transaction_id)`.execute(db)

  // Append-only: entries and transactions are never changed or removed.
  await sql`
    create function ledger_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'the ledger is append-only: % on % refused', tg_op, tg_table_name;
    end $$`.execute(db)
  for (const table of ['ledger_entries', 'ledger_transactions']) {
    await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)}
      for each row execute function ledger_append_only()`.execute(db)
  }
  // Balanced: at commit, every transaction's entries sum to zero per currency.
  await sql`
    create function ledger_balanced() returns trigger language plpgsql as $$
    begin
      if exists (
        select 1 from ledger_entries where transaction_id = new.transaction_id
        group by currency having sum(amount_minor) <> 0
      ) then
        raise exception 'ledger transaction % does not balance', new.transaction_id;
      end if;
      return null;
    end $$`.execute(db)
  await sql`create constraint trigger ledger_entries_balanced after insert on ledger_entries
    deferrable initially deferred for each row execute function ledger_balanced()`.execute(db)
}

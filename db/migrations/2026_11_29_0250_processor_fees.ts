// Frozen: the payment processor's fee on creators' sales (issue 31). A share of a line paid through Stripe is
// recorded at the sale with its processor's fee still due; the fee is read from Stripe (the charge's balance
// transaction) after the payment's transaction and taken once, as its own ledger posting. Never import application
// code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('earning_shares')
    .addColumn('processor_fee_due', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute()
  // The sweep looks only at shares still waiting for their fee.
  await sql`create index earning_shares_fee_due_idx on earning_shares (created_at) where processor_fee_due`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('earning_shares').dropColumn('processor_fee_due').execute()
}

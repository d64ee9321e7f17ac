// Frozen: an open card dispute holds back the creators' shares of the order it disputes (2026-12-24, decision 0125).
// earning_shares.dispute_hold_id names the open dispute holding the line's share: while it is set the refund window's
// release waits, and a share already released was moved back from available to pending by a `dispute_hold` posting,
// which a `dispute_hold_end` posting undoes when the dispute is won (or lost in part). Never import application code.
import { type Kysely, sql } from 'kysely'

const KINDS = `'sale','refund','dispute','hold_release','processor_fee','pool_share','payout','transfer_reversal','adjustment'`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('earning_shares').addColumn('dispute_hold_id', 'text').execute()
  await sql`alter table ledger_transactions drop constraint ledger_transactions_kind_check`.execute(db)
  await sql`alter table ledger_transactions add constraint ledger_transactions_kind_check
    check (kind in (${sql.raw(KINDS)},'dispute_hold','dispute_hold_end'))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table ledger_transactions drop constraint ledger_transactions_kind_check`.execute(db)
  await sql`alter table ledger_transactions add constraint ledger_transactions_kind_check
    check (kind in (${sql.raw(KINDS)}))`.execute(db)
  await db.schema.alterTable('earning_shares').dropColumn('dispute_hold_id').execute()
}

// Frozen: after-purchase gaps as of 2026-11-25 (issue 13, decision 0026). Never import application code here.
// - refunds.method gains 'dispute': money the buyer's bank took back through a lost chargeback is recorded as a
//   refund of that kind (with its credit note), so the order's refunded amount and the ledger agree.
// - refunds.needs_line_assignment: a partial refund made in the Stripe dashboard names no lines; staff decide
//   which lines it gave back (or that access stays), and until then the order is flagged in /admin/orders.
// - orders.tax_lines: the per-jurisdiction tax Stripe Tax computed ({ name, amountMinor }[]), for the invoice.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table refunds drop constraint if exists refunds_method_check`.execute(db)
  await sql`alter table refunds add constraint refunds_method_check
    check (method in ('stripe','manual','dispute'))`.execute(db)
  await db.schema
    .alterTable('refunds')
    .addColumn('needs_line_assignment', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute()
  await sql`create index refunds_needs_line_assignment_idx on refunds (order_id) where needs_line_assignment`.execute(
    db,
  )
  await db.schema
    .alterTable('orders')
    .addColumn('tax_lines', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('tax_lines').execute()
  await sql`drop index if exists refunds_needs_line_assignment_idx`.execute(db)
  await db.schema.alterTable('refunds').dropColumn('needs_line_assignment').execute()
  await sql`delete from refunds where method = 'dispute'`.execute(db)
  await sql`alter table refunds drop constraint if exists refunds_method_check`.execute(db)
  await sql`alter table refunds add constraint refunds_method_check check (method in ('stripe','manual'))`.execute(db)
}

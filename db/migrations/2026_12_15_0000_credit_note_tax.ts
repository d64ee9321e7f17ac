// Frozen: a credit note stores the part of its total that was tax (2026-12-15), so a line refund of a taxed order
// lists its lines at their prices, the tax given back, and a total that is their sum. Notes issued before keep 0: an
// issued document is never rewritten. Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('credit_notes')
    .addColumn('tax_minor', 'integer', (column) => column.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('credit_notes')
    .addCheckConstraint('credit_notes_tax_within_total', sql`tax_minor >= 0 and tax_minor <= total_minor`)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('credit_notes').dropColumn('tax_minor').execute()
}

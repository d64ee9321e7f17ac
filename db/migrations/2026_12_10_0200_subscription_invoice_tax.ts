// Frozen: the part of a paid subscription invoice that is tax (Stripe Tax on renewals), so its numbered invoice shows
// the tax and the Premium pool counts what the plan earned, not the tax collected. Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table subscription_invoices add column tax_minor integer not null default 0 check (tax_minor >= 0)`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table subscription_invoices drop column tax_minor`.execute(db)
}

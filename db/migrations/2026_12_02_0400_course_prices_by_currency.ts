// Frozen: a course may be priced in USD and/or GBP (issue 30, decision 0069). price_usd_minor and price_gbp_minor are
// the prices a buyer pays (null: not sold in that currency; both null: free); price_minor and currency stay the list
// price the catalogue filters and sorts by, kept by the server from the two. Existing prices move to their currency's
// column. A cart line of a course remembers the currency the buyer chose (null: the course's list currency).
// Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('courses')
    .addColumn('price_usd_minor', 'integer', (c) => c.check(sql`price_usd_minor > 0`))
    .addColumn('price_gbp_minor', 'integer', (c) => c.check(sql`price_gbp_minor > 0`))
    .execute()
  await sql`update courses set price_usd_minor = price_minor where currency = 'USD' and price_minor > 0`.execute(db)
  await sql`update courses set price_gbp_minor = price_minor where currency = 'GBP' and price_minor > 0`.execute(db)
  // A pending revision's price (priceMinor, currency) becomes its price per currency (priceUsdMinor, priceGbpMinor;
  // null: not sold in it).
  await sql`update course_drafts d set fields = (d.fields - 'priceMinor' - 'currency') || jsonb_build_object(
      'priceUsdMinor', case when p.currency = 'USD' and p.amount > 0 then p.amount end,
      'priceGbpMinor', case when p.currency = 'GBP' and p.amount > 0 then p.amount end)
    from (select d2.course_id, coalesce(d2.fields->>'currency', c.currency) as currency,
            coalesce((d2.fields->>'priceMinor')::int, c.price_minor) as amount
          from course_drafts d2 join courses c on c.id = d2.course_id
          where d2.fields ? 'priceMinor' or d2.fields ? 'currency') p
    where p.course_id = d.course_id`.execute(db)
  await db.schema
    .alterTable('cart_items')
    .addColumn('currency', 'text', (c) => c.check(sql`currency in ('USD', 'GBP')`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cart_items').dropColumn('currency').execute()
  await db.schema.alterTable('courses').dropColumn('price_gbp_minor').dropColumn('price_usd_minor').execute()
}

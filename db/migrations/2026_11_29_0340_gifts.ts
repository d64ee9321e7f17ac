// Frozen: gifts (issue 32). A gift is one paid order line bought for someone else: the buyer is not enrolled; the
// recipient claims it with a single-use link (only its SHA-256 is stored) and the order line's access grant is then
// theirs. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // A gift order stands beside the cart's pending order (one pending order per cart counts cart orders only).
  await sql`alter table orders drop constraint if exists orders_source_check`.execute(db)
  await sql`alter table orders add constraint orders_source_check check (source in ('cart','renewal','gift'))`.execute(
    db,
  )

  await db.schema
    .createTable('gifts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (c) => c.notNull().unique().references('orders.id').onDelete('cascade'))
    .addColumn('order_item_id', 'uuid', (c) => c.notNull().unique().references('order_items.id').onDelete('cascade'))
    .addColumn('buyer_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('recipient_email', 'text', (c) =>
      c.notNull().check(sql`length(recipient_email) between 3 and 254 and position('@' in recipient_email) > 1`),
    )
    .addColumn('message', 'text', (c) => c.notNull().defaultTo('').check(sql`length(message) <= 1000`))
    // When the e-mail goes out (the purchase time when the buyer chose no date).
    .addColumn('send_at', 'timestamptz', (c) => c.notNull())
    // The site's origin at purchase: the claim link in the e-mail the scheduled sweep sends later.
    .addColumn('link_origin', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'timestamptz')
    // SHA-256 of the live claim link's token: null before the e-mail and after the claim; a resend replaces it.
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('mailed_at', 'timestamptz')
    .addColumn('mail_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('gifts_claim_pair', sql`(claimed_by is null) = (claimed_at is null)`)
    .execute()
  await sql`create index gifts_buyer_idx on gifts (buyer_id, created_at desc)`.execute(db)
  // The sweep's read: paid gifts whose e-mail has not gone out yet.
  await sql`create index gifts_due_idx on gifts (send_at) where paid_at is not null and mailed_at is null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('gifts').execute()
  await sql`alter table orders drop constraint if exists orders_source_check`.execute(db)
  await sql`alter table orders add constraint orders_source_check check (source in ('cart','renewal'))`.execute(db)
}

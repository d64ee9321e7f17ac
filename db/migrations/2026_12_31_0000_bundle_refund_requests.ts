// Frozen: a refund request on a course bought in a bundle is a request for the bundle (decision 0149). `bundle_id`
// is the bundle of the line asked from; one request per bundle of an order, kept by a unique index so that two
// requests sent at once on two of its courses cannot both stand. Requests made before are about their line only and
// keep a null bundle_id. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table refund_requests add column bundle_id uuid references bundles(id) on delete set null`.execute(db)
  await sql`create unique index refund_requests_one_per_bundle on refund_requests (order_id, bundle_id)
    where bundle_id is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists refund_requests_one_per_bundle`.execute(db)
  await sql`alter table refund_requests drop column bundle_id`.execute(db)
}

// Frozen: co-instructors' shares of a course's earnings (issue 31). The owner sets each instructor's percentage
// (basis points summing to 10,000 per course); each sale stores how its creators' part was split among them.
// Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('course_instructors')
    .addColumn('share_basis_points', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`share_basis_points between 0 and 10000`),
    )
    .execute()
  // Until the owner says otherwise, the owner takes the whole share.
  await sql`update course_instructors set share_basis_points = 10000 where role = 'owner'`.execute(db)

  // One row per creator paid from a sale: the sale's creators' part (earning_shares.creator_minor) split by the
  // percentages in force at the sale, by largest remainder, and reused by every release and reversal.
  await db.schema
    .createTable('earning_share_parts')
    .addColumn('order_item_id', 'uuid', (c) => c.notNull().references('earning_shares.order_item_id'))
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('share_basis_points', 'integer', (c) => c.notNull().check(sql`share_basis_points between 0 and 10000`))
    .addColumn('creator_minor', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('earning_share_parts_pk', ['order_item_id', 'creator_id'])
    .execute()
  await sql`create index earning_share_parts_creator_idx on earning_share_parts (creator_id)`.execute(db)
  await sql`insert into earning_share_parts (order_item_id, creator_id, share_basis_points, creator_minor)
    select order_item_id, creator_id, 10000, creator_minor from earning_shares`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('earning_share_parts').execute()
  await db.schema.alterTable('course_instructors').dropColumn('share_basis_points').execute()
}

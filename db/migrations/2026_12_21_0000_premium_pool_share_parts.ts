// Frozen: how each course's Premium pool share was split among its instructors, stored with the share (2026-12-21).
// The split was credited to each instructor's ledger but kept nowhere else, so the studio's Earnings page read the
// course's whole share under its owner and showed co-instructors nothing. Months computed before this get their parts
// from what the ledger credited under the share's key (a share of 0 was never posted: its owner gets a part of 0).
// Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('premium_pool_share_parts')
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('share_minor', 'integer', (c) => c.notNull().check(sql`share_minor >= 0`))
    .addPrimaryKeyConstraint('premium_pool_share_parts_pkey', ['month', 'currency', 'course_id', 'creator_id'])
    .addForeignKeyConstraint(
      'premium_pool_share_parts_share_fk',
      ['month', 'currency', 'course_id'],
      'premium_pool_shares',
      ['month', 'currency', 'course_id'],
    )
    .execute()
  await sql`create index premium_pool_share_parts_creator_idx on premium_pool_share_parts (creator_id, month)`.execute(
    db,
  )
  await sql`insert into premium_pool_share_parts (month, currency, course_id, creator_id, share_minor)
    select s.month, s.currency, s.course_id, e.creator_id, sum(e.amount_minor)::int
    from premium_pool_shares s
    join ledger_transactions t on t.key = 'pool:' || s.month || ':' || s.currency || ':' || s.course_id
    join ledger_entries e on e.transaction_id = t.id and e.account = 'creator_available'
    group by s.month, s.currency, s.course_id, e.creator_id`.execute(db)
  await sql`insert into premium_pool_share_parts (month, currency, course_id, creator_id, share_minor)
    select s.month, s.currency, s.course_id, s.creator_id, 0
    from premium_pool_shares s
    where not exists (select 1 from premium_pool_share_parts p
      where p.month = s.month and p.currency = s.currency and p.course_id = s.course_id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('premium_pool_share_parts').execute()
}

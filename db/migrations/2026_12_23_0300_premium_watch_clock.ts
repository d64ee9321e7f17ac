// Frozen: one clock per Premium member for the Premium pool's watch time (2026-12-23, decision 0115). Each lesson's
// watching allowance (lesson_progress.allowance_from) is per lesson, so several lessons playing at once in several
// tabs were each credited to the pool: one member could credit more watch time than the wall-clock time that passed.
// premium_watch_clocks.credited_until (learning/, written by the server only): the moment of the server's clock up
// to which the member's credited Premium watch time is accounted for at 1×. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('premium_watch_clocks')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('credited_until', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('premium_watch_clocks').ifExists().execute()
}

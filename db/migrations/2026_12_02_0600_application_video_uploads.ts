// Frozen: the sample video of an application to teach arrives over tus like a lesson video (issue 30, decision
// 0039). Its creator_uploads row says so ('application'): it counts against no plan, is never a lesson's video, and
// is not transcoded. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('creator_uploads')
    .addColumn('purpose', 'text', (c) =>
      c.notNull().defaultTo('lesson').check(sql`purpose in ('lesson', 'application')`),
    )
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('creator_uploads').dropColumn('purpose').execute()
}

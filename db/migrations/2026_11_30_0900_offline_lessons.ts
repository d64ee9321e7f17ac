// Frozen: saving lessons for offline (issue 34). Premium members may save any lesson they can open; a course's owner
// may also let its buyers save its lessons. Never import application code here.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('courses')
    .addColumn('offline_for_buyers', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('courses').dropColumn('offline_for_buyers').execute()
}

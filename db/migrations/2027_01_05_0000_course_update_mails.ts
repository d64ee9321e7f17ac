// Frozen: a person chooses whether their courses' news reaches them by e-mail (a section opening on its drip schedule,
// a live session scheduled for a course they hold); on unless they turn it off on their account page. Never import
// application code.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('course_update_mails', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('course_update_mails').execute()
}

// Frozen: drip schedules per course section and the unlock mails sent for them (issue 33). Never import
// application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // A section without a row opens at once. With one it opens `after_days` after the learner's access began, on
  // `opens_at`, or at the later of the two when both are set.
  await db.schema
    .createTable('section_drips')
    .addColumn('section_id', 'uuid', (c) => c.primaryKey().references('course_sections.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('after_days', 'integer', (c) => c.check(sql`after_days between 1 and 3650`))
    .addColumn('opens_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('section_drips_something', sql`after_days is not null or opens_at is not null`)
    .execute()
  await db.schema.createIndex('section_drips_course_idx').on('section_drips').column('course_id').execute()

  // One unlock mail per learner and section: the row is the claim, written with the outbox row.
  await db.schema
    .createTable('drip_unlock_mails')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('section_id', 'uuid', (c) => c.notNull().references('course_sections.id').onDelete('cascade'))
    .addColumn('unlocked_at', 'timestamptz', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('drip_unlock_mails_pk', ['user_id', 'section_id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('drip_unlock_mails').execute()
  await db.schema.dropTable('section_drips').execute()
}

// Frozen: a school's invitations to take a course (decision 0128). The REST API enrols by e-mail only a learner the
// school already has; anyone else is invited, and is enrolled when they accept with the invited address. Same columns
// as the team invitations: a random single-use token stored only as its SHA-256 hash. Never import application code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('course_enrolment_invites')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('invited_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('accepted_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // One open invitation per address and course: a new one replaces it.
  await sql`create unique index course_enrolment_invites_open_idx
    on course_enrolment_invites (course_id, lower(email)) where accepted_at is null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('course_enrolment_invites').ifExists().execute()
}

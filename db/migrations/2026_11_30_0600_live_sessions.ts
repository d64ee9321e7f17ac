// Frozen: live sessions (issue 34): scheduled by a course's instructors or staff, for a course's learners or for all
// Premium members; registrations with a waitlist, attendance (who opened the join link), and the calendar
// invitation a mail carries. Never import application code here.
import { type Kysely, sql } from 'kysely'

const now = sql`now()`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('live_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // null: a session for all Premium members (staff only).
    .addColumn('course_id', 'text', (c) => c.references('courses.id').onDelete('cascade'))
    .addColumn('host_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull().check(sql`char_length(title) between 1 and 200`))
    .addColumn('description', 'text', (c) => c.notNull().check(sql`char_length(description) <= 5000`))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull().check(sql`duration_minutes between 5 and 600`))
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull().check(sql`capacity between 1 and 100000`))
    .addColumn('join_url', 'text', (c) => c.notNull().check(sql`join_url like 'https://%'`))
    // The iCalendar SEQUENCE: raised at each reschedule (and at cancellation) so calendars apply the update.
    .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('recording_lesson_id', 'uuid', (c) => c.references('lessons.id').onDelete('set null'))
    .addColumn('recording_url', 'text', (c) => c.check(sql`recording_url like 'https://%'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('live_sessions_starts_idx').on('live_sessions').columns(['starts_at']).execute()
  await db.schema
    .createIndex('live_sessions_course_idx')
    .on('live_sessions')
    .columns(['course_id', 'starts_at'])
    .execute()

  await db.schema
    .createTable('live_registrations')
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('live_sessions.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('registered', 'waitlisted', 'cancelled')`))
    // The waitlist's order: when the member (last) asked for a seat.
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('reminded_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    .addPrimaryKeyConstraint('live_registrations_pk', ['session_id', 'user_id'])
    .execute()
  await db.schema
    .createIndex('live_registrations_status_idx')
    .on('live_registrations')
    .columns(['session_id', 'status', 'requested_at'])
    .execute()
  await db.schema.createIndex('live_registrations_user_idx').on('live_registrations').columns(['user_id']).execute()

  await db.schema
    .createTable('live_attendance')
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('live_sessions.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('first_joined_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_joined_at', 'timestamptz', (c) => c.notNull())
    .addColumn('joins', 'integer', (c) => c.notNull().defaultTo(1))
    .addPrimaryKeyConstraint('live_attendance_pk', ['session_id', 'user_id'])
    .execute()

  // A calendar invitation (text/calendar, METHOD REQUEST or CANCEL) sent with a mail.
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('calendar_ics', 'text')
    .addColumn('calendar_method', 'text')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('calendar_ics').dropColumn('calendar_method').execute()
  await db.schema.dropTable('live_attendance').execute()
  await db.schema.dropTable('live_registrations').execute()
  await db.schema.dropTable('live_sessions').execute()
}

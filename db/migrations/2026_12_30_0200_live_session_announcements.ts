// Frozen: a live session of a course is announced once to the course's holders (decision 0142). `announced_at` is the
// claim: null until the announcements sweep mails the holders. Sessions already scheduled are marked announced, so
// deploying this does not mail anyone about a session they were never told of before. Never import application code
// here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table live_sessions add column announced_at timestamptz`.execute(db)
  await sql`update live_sessions set announced_at = now()`.execute(db)
  await sql`create index live_sessions_unannounced_idx on live_sessions (starts_at)
    where announced_at is null and course_id is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table live_sessions drop column announced_at`.execute(db)
}

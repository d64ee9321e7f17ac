// Frozen: a lesson video is uploaded for a course (decision 0138). A co-instructor or a school's instructor uploads
// for the course they edit, and its bytes count against the course owner's plan, the one that pays for the team:
// `course_id` names the course (its editors may claim the upload for its lessons; null: an upload of the uploader's
// own, made from "My video uploads" or before this migration), `storage_owner_id` whose plan storage counts it (the
// uploader for every upload before this one, so nothing already stored moves). Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table creator_uploads
    add column course_id text references courses(id) on delete set null,
    add column storage_owner_id uuid references users(id) on delete cascade`.execute(db)
  await sql`update creator_uploads set storage_owner_id = user_id`.execute(db)
  await sql`alter table creator_uploads alter column storage_owner_id set not null`.execute(db)
  await sql`create index creator_uploads_storage_owner_idx on creator_uploads (storage_owner_id, status)`.execute(db)
  await sql`create index creator_uploads_course_idx on creator_uploads (course_id) where course_id is not null`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table creator_uploads drop column course_id, drop column storage_owner_id`.execute(db)
}

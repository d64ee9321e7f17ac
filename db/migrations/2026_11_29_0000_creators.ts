// Frozen: the creator side (issue 30) — applications to teach, creators and their public profiles, courses owned by
// a creator with a review workflow, the people who may edit a course, and the video bytes each creator stores.
// Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // A public instructor profile: /instructors/{slug}. The seed's instructors stay house instructors (user_id null).
  await db.schema.alterTable('instructors').addColumn('slug', 'text').execute()
  await db.schema
    .alterTable('instructors')
    .addColumn('user_id', 'uuid', (c) => c.unique().references('users.id').onDelete('set null'))
    .execute()
  await db.schema
    .alterTable('instructors')
    .addColumn('links', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute()
  // Existing instructors get a slug from their name; a repeated name takes a short piece of its id.
  await sql`
    update instructors i set slug = s.slug from (
      select id, case when row_number() over (partition by base order by created_at, id) = 1 then base
                      else base || '-' || left(id::text, 6) end as slug
      from (select id, created_at,
                   coalesce(nullif(trim(both '-' from lower(regexp_replace(name, '[^a-zA-Z0-9]+', '-', 'g'))), ''),
                            'instructor') as base
            from instructors) named
    ) s where s.id = i.id`.execute(db)
  await sql`alter table instructors alter column slug set not null`.execute(db)
  await sql`create unique index instructors_slug_idx on instructors (slug)`.execute(db)

  // A creator is a capability of a customer account, never a staff role; it comes with an instructor profile.
  await db.schema
    .createTable('creators')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('instructor_id', 'uuid', (c) => c.notNull().unique().references('instructors.id'))
    .addColumn('approved_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('creator_applications')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('headline', 'text', (c) => c.notNull())
    .addColumn('category_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('proposal', 'text', (c) => c.notNull())
    // { website?, linkedin?, youtube? }
    .addColumn('links', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // { key, name, contentType, sizeBytes } of a sample video or a CV (PDF), or null
    .addColumn('attachment', 'jsonb')
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('submitted').check(sql`status in ('submitted','approved','declined')`),
    )
    .addColumn('decision_reason', 'text')
    .addColumn('decided_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // One open application per person, enforced by the database.
  await sql`create unique index creator_applications_open_idx on creator_applications (user_id) where status = 'submitted'`.execute(
    db,
  )
  await sql`create index creator_applications_queue_idx on creator_applications (status, created_at)`.execute(db)

  // Courses: an owner (null: a house course run by staff), a subtitle, and the review workflow's states.
  await db.schema
    .alterTable('courses')
    .addColumn('owner_id', 'uuid', (c) => c.references('users.id').onDelete('restrict'))
    .execute()
  await db.schema
    .alterTable('courses')
    .addColumn('subtitle', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  await sql`alter table courses drop constraint courses_status_check`.execute(db)
  await sql`alter table courses add constraint courses_status_check
    check (status in ('draft','in_review','changes_requested','published','unpublished','archived'))`.execute(db)
  await sql`create index courses_owner_idx on courses (owner_id, status) where owner_id is not null`.execute(db)

  // Who may edit a course: its owner and co-instructors (creators/ owns this table).
  await db.schema
    .createTable('course_instructors')
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner','co')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('course_instructors_pk', ['course_id', 'user_id'])
    .execute()
  await sql`create index course_instructors_user_idx on course_instructors (user_id)`.execute(db)
  await sql`create unique index course_instructors_one_owner_idx on course_instructors (course_id) where role = 'owner'`.execute(
    db,
  )

  // A submission for review: a new course, or a revision of a published one (its pending changes in `changes`).
  await db.schema
    .createTable('course_submissions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('first','revision')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending','approved','changes_requested','withdrawn')`),
    )
    .addColumn('changes', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // [{ item, comment }] written by the reviewer when asking for changes
    .addColumn('comments', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('submitted_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`create unique index course_submissions_pending_idx on course_submissions (course_id) where status = 'pending'`.execute(
    db,
  )
  await sql`create index course_submissions_queue_idx on course_submissions (status, created_at)`.execute(db)

  // A published course's reviewed fields (title, price, description) edited since: applied when staff approve.
  await db.schema
    .createTable('course_drafts')
    .addColumn('course_id', 'text', (c) => c.primaryKey().references('courses.id').onDelete('cascade'))
    .addColumn('fields', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  // A lesson added to a published course waits for review before learners see it.
  await db.schema
    .alterTable('lessons')
    .addColumn('pending_review', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute()

  // Every video byte a creator stores: counted against the plan when the upload finishes, given back on release.
  await db.schema
    .createTable('creator_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('size_bytes', 'bigint', (c) => c.notNull().check(sql`size_bytes >= 0`))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('uploading').check(sql`status in ('uploading','stored','released')`),
    )
    .addColumn('storage_key', 'text')
    .addColumn('file_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content_type', 'text')
    .addColumn('duration_seconds', 'integer')
    .addColumn('lesson_id', 'uuid', (c) => c.references('lessons.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute()
  await sql`create index creator_uploads_user_idx on creator_uploads (user_id, status)`.execute(db)
}

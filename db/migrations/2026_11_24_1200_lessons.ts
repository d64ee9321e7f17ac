// Frozen: lessons as rows, learner progress, completions and certificates, as of 2026-11-24. Never import
// application code here.
// The courses.curriculum JSON column becomes ordered course_sections and lessons with stable uuid ids (so progress
// can point at a lesson and survive edits); every course keeps its sections, titles, durations and preview flags.
import { type Kysely, sql } from 'kysely'

const now = sql`now()`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('courses')
    .addColumn('included_in_premium', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute()

  await db.schema
    .createTable('course_sections')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema
    .createIndex('course_sections_course_idx')
    .on('course_sections')
    .columns(['course_id', 'position'])
    .execute()

  await db.schema
    .createTable('lessons')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('section_id', 'uuid', (c) => c.notNull().references('course_sections.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('duration_seconds', 'integer', (c) => c.notNull().defaultTo(0).check(sql`duration_seconds >= 0`))
    .addColumn('is_preview', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('article').check(sql`kind in ('article','video')`))
    .addColumn('body_markdown', 'text', (c) => c.notNull().defaultTo(''))
    // A video is either a file in storage (video_key) or a YouTube/Vimeo address (video_url).
    .addColumn('video_key', 'text')
    .addColumn('video_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('lessons_section_idx').on('lessons').columns(['section_id', 'position']).execute()
  await db.schema.createIndex('lessons_course_idx').on('lessons').column('course_id').execute()

  await db.schema
    .createTable('lesson_attachments')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('lesson_id', 'uuid', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('lesson_attachments_lesson_idx').on('lesson_attachments').column('lesson_id').execute()

  // One row per learner and lesson: the video position to resume, the merged watched ranges ([[start, end], …] in
  // seconds) and when the lesson was completed (null: not complete, or completion undone).
  await db.schema
    .createTable('lesson_progress')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('lesson_id', 'uuid', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
    .addColumn('position_seconds', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('watched_ranges', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('watched_seconds', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('completed_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('lesson_progress_pkey', ['user_id', 'lesson_id'])
    .execute()
  await db.schema
    .createIndex('lesson_progress_course_idx')
    .on('lesson_progress')
    .columns(['user_id', 'course_id'])
    .execute()

  // A course completes once per learner (the primary key makes it so under concurrent writes).
  await db.schema
    .createTable('course_completions')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('completed_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('lesson_count', 'integer', (c) => c.notNull())
    // How the learner held the course then ('purchase', 'premium', 'staff'): a bought course whose access is later
    // revoked shows its certificate as revoked; a lapsed Premium does not.
    .addColumn('access_source', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('course_completions_pkey', ['user_id', 'course_id'])
    .execute()

  // A certificate keeps what it certified as it was on the day (names and titles may change later).
  await db.schema
    .createTable('certificates')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('learner_name', 'text', (c) => c.notNull())
    .addColumn('course_title', 'text', (c) => c.notNull())
    .addColumn('instructor_name', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('certificates_user_course_key', ['user_id', 'course_id'])
    .execute()

  await sql`
    insert into course_sections (course_id, position, title)
    select c.id, s.ord - 1, s.value->>'title'
    from courses c cross join lateral jsonb_array_elements(c.curriculum) with ordinality as s(value, ord)`.execute(db)
  await sql`
    insert into lessons (course_id, section_id, position, title, duration_seconds, is_preview)
    select c.id, cs.id, l.ord - 1, l.value->>'title',
           coalesce((l.value->>'durationSeconds')::integer, 0), coalesce((l.value->>'isPreview')::boolean, false)
    from courses c
    cross join lateral jsonb_array_elements(c.curriculum) with ordinality as s(value, ord)
    join course_sections cs on cs.course_id = c.id and cs.position = s.ord - 1
    cross join lateral jsonb_array_elements(s.value->'lessons') with ordinality as l(value, ord)`.execute(db)
  await db.schema.alterTable('courses').dropColumn('curriculum').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('courses')
    .addColumn('curriculum', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute()
  await sql`
    update courses c set curriculum = coalesce((
      select jsonb_agg(jsonb_build_object('title', cs.title, 'lessons', coalesce((
        select jsonb_agg(jsonb_build_object('title', l.title, 'durationSeconds', l.duration_seconds,
                                            'isPreview', l.is_preview) order by l.position)
        from lessons l where l.section_id = cs.id), '[]'::jsonb)) order by cs.position)
      from course_sections cs where cs.course_id = c.id), '[]'::jsonb)`.execute(db)
  for (const table of [
    'certificates',
    'course_completions',
    'lesson_progress',
    'lesson_attachments',
    'lessons',
    'course_sections',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
  await db.schema.alterTable('courses').dropColumn('included_in_premium').execute()
}

// The migration that turns courses.curriculum (JSON) into course_sections and lessons rows keeps every course's
// sections, titles, durations and preview flags, in order; and its down migration rebuilds the same JSON.
import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrations } from '../../../db/migrations/index.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { openTestPglite } from '../../support/test-pglite.ts'

const LESSONS_MIGRATION = '2026_11_24_1200_lessons'
const before = Object.keys(migrations).filter((name) => name < LESSONS_MIGRATION)
const curriculum = [
  {
    title: 'Start',
    lessons: [
      { title: 'Welcome', durationSeconds: 255, isPreview: true },
      { title: 'Setup', durationSeconds: 580, isPreview: false },
    ],
  },
  { title: 'Empty section', lessons: [] },
  { title: 'Deeper', lessons: [{ title: 'Welcome', durationSeconds: 60, isPreview: false }] },
]

let handle: DatabaseHandle
// biome-ignore lint/suspicious/noExplicitAny: migrations run on an untyped Kysely, as they are written
const db = () => handle.db as any
const migrator = () => new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } })

beforeAll(async () => {
  handle = await openTestPglite()
  const result = await migrator().migrateTo(before.at(-1) as string)
  expect(result.error).toBeUndefined()
  const category = await sql<{
    id: string
  }>`insert into categories (slug, name) values ('dev', 'Dev') returning id`.execute(handle.db)
  const categoryId = category.rows[0]?.id
  await sql`insert into courses (id, title, category_id, instructor_name, price_minor, curriculum)
            values ('with-lessons', 'With lessons', ${categoryId}, 'Ada', 100, ${JSON.stringify(curriculum)}::jsonb),
                   ('without', 'Without', ${categoryId}, 'Ada', 100, '[]'::jsonb)`.execute(handle.db)
})
afterAll(async () => {
  await handle.close()
})

describe('lessons migration', () => {
  it('keeps every section and lesson in order with titles, durations and preview flags', async () => {
    const result = await migrator().migrateTo(LESSONS_MIGRATION)
    expect(result.error).toBeUndefined()
    const sections = await db()
      .selectFrom('course_sections')
      .select(['id', 'course_id', 'position', 'title'])
      .orderBy('position')
      .execute()
    expect(sections.map((s: { title: string }) => s.title)).toEqual(['Start', 'Empty section', 'Deeper'])
    expect(new Set(sections.map((s: { course_id: string }) => s.course_id))).toEqual(new Set(['with-lessons']))
    const lessons = await db()
      .selectFrom('lessons as l')
      .innerJoin('course_sections as s', 's.id', 'l.section_id')
      .select(['s.title as section', 'l.title', 'l.duration_seconds', 'l.is_preview', 'l.kind', 'l.id'])
      .orderBy('s.position')
      .orderBy('l.position')
      .execute()
    expect(lessons.map(({ id: _id, ...rest }: { id: string }) => rest)).toEqual([
      { section: 'Start', title: 'Welcome', duration_seconds: 255, is_preview: true, kind: 'article' },
      { section: 'Start', title: 'Setup', duration_seconds: 580, is_preview: false, kind: 'article' },
      { section: 'Deeper', title: 'Welcome', duration_seconds: 60, is_preview: false, kind: 'article' },
    ])
    expect(lessons.every((l: { id: string }) => /^[0-9a-f-]{36}$/.test(l.id))).toBe(true)
    const columns = await sql<{ column_name: string }>`
      select column_name from information_schema.columns where table_name = 'courses'`.execute(handle.db)
    expect(columns.rows.map((c) => c.column_name)).not.toContain('curriculum')
  })

  it('rebuilds the same curriculum JSON when migrated down', async () => {
    const result = await migrator().migrateDown()
    expect(result.error).toBeUndefined()
    const rows = await sql<{ id: string; curriculum: unknown }>`select id, curriculum from courses order by id`.execute(
      handle.db,
    )
    expect(rows.rows).toEqual([
      { id: 'with-lessons', curriculum },
      { id: 'without', curriculum: [] },
    ])
  })
})

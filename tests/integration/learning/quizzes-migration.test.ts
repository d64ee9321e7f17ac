// The quizzes migration (issue 33): a lesson may then be a quiz (the kind's check is replaced, not added beside the
// old one), quizzes and attempts have their tables and one open attempt per learner and quiz; down removes them and
// quiz lessons, and restores the old check.
import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrations } from '../../../db/migrations/index.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { openTestPglite } from '../../support/test-pglite.ts'

const QUIZZES = '2026_11_29_0400_quizzes'
const before = Object.keys(migrations).filter((name) => name < QUIZZES)

let handle: DatabaseHandle
const migrator = () => new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } })
let sectionId = ''

const addLesson = (kind: string) =>
  sql<{ id: string }>`insert into lessons (course_id, section_id, position, title, kind)
    values ('quiz-migration', ${sectionId}, 0, 'A lesson', ${kind}) returning id`.execute(handle.db)

beforeAll(async () => {
  handle = await openTestPglite()
  expect((await migrator().migrateTo(before.at(-1) as string)).error).toBeUndefined()
  const category = await sql<{
    id: string
  }>`insert into categories (slug, name) values ('q', 'Q') returning id`.execute(handle.db)
  await sql`insert into courses (id, title, category_id, instructor_name, price_minor)
    values ('quiz-migration', 'Quiz migration', ${category.rows[0]?.id}, 'Ada', 100)`.execute(handle.db)
  const section = await sql<{ id: string }>`insert into course_sections (course_id, position, title)
    values ('quiz-migration', 0, 'S') returning id`.execute(handle.db)
  sectionId = section.rows[0]?.id ?? ''
})
afterAll(() => handle.close())

describe('quizzes migration', () => {
  it('refuses a quiz lesson before, accepts one after; one open attempt per learner and quiz; down undoes it', async () => {
    await expect(addLesson('quiz')).rejects.toThrow(/lessons_kind_check/)
    expect((await migrator().migrateTo(QUIZZES)).error).toBeUndefined()
    await expect(addLesson('podcast')).rejects.toThrow(/lessons_kind_check/)
    const lessonId = (await addLesson('quiz')).rows[0]?.id
    await sql`insert into quizzes (lesson_id, course_id) values (${lessonId}, 'quiz-migration')`.execute(handle.db)
    const user = await sql<{ id: string }>`insert into users (email, password_hash)
      values ('quiz-migration@example.com', 'x') returning id`.execute(handle.db)
    const attempt = sql`insert into quiz_attempts (lesson_id, course_id, user_id, started_at, layout, question_count)
      values (${lessonId}, 'quiz-migration', ${user.rows[0]?.id}, now(), '{"questions":[],"options":{}}', 0)`
    await attempt.execute(handle.db)
    await expect(attempt.execute(handle.db)).rejects.toThrow(/quiz_attempts_open_idx/)

    expect((await migrator().migrateDown()).error).toBeUndefined()
    const tables = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
      where table_name in ('quizzes', 'quiz_attempts')`.execute(handle.db)
    expect(tables.rows[0]?.n).toBe(0)
    const quizLessons = await sql<{ n: number }>`select count(*)::int as n from lessons where kind = 'quiz'`.execute(
      handle.db,
    )
    expect(quizLessons.rows[0]?.n).toBe(0)
    await expect(addLesson('quiz')).rejects.toThrow(/lessons_kind_check/)
  })
})

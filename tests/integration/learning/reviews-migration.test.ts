// The reviews migration: ratings typed in before it had no review rows behind them, so an existing database shows
// no rating until real (or seeded) reviews exist.
import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrations } from '../../../db/migrations/index.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { openTestPglite } from '../../support/test-pglite.ts'

const REVIEWS_MIGRATION = '2026_11_24_1700_course_reviews'
const before = Object.keys(migrations).filter((name) => name < REVIEWS_MIGRATION)

let handle: DatabaseHandle
const migrator = () => new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } })

beforeAll(async () => {
  handle = await openTestPglite()
  expect((await migrator().migrateTo(before.at(-1) as string)).error).toBeUndefined()
  const category = await sql<{
    id: string
  }>`insert into categories (slug, name) values ('dev', 'Dev') returning id`.execute(handle.db)
  await sql`insert into courses (id, title, category_id, instructor_name, price_minor, rating, review_count)
            values ('typed-in', 'Typed in', ${category.rows[0]?.id}, 'Ada', 100, 4.8, 12840)`.execute(handle.db)
})
afterAll(() => handle.close())

describe('reviews migration', () => {
  it('resets every course to the rating its (zero) review rows give', async () => {
    expect((await migrator().migrateTo(REVIEWS_MIGRATION)).error).toBeUndefined()
    const course = await handle.db
      .selectFrom('courses')
      .select(['rating', 'review_count'])
      .where('id', '=', 'typed-in')
      .executeTakeFirstOrThrow()
    expect(course).toEqual({ rating: 0, review_count: 0 })
    expect((await migrator().migrateDown()).error).toBeUndefined()
    expect((await migrator().migrateToLatest()).error).toBeUndefined()
  })
})

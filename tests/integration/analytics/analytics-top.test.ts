// Analytics (issue 35): the staff page's "Courses sold" table reads the job's best-seller lists of aligned blocks of
// days for rolled days; it shows the same rows and figures as the live orders, a rerun writes the same lists, and
// a block not listed yet (days rolled before the lists existed) is filled by the next run.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAnalyticsRollup } from '../../../src-server/analytics/rollup.ts'
import { blocksOf } from '../../../src-server/analytics/top.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { sell } from '../../support/earnings.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { shopCaller } from '../../support/shop.ts'

let database: TestDatabase
let viewer: TestUser
const db = () => database.db
const NOW = new Date('2026-11-29T12:00:00Z')
const RANGE = { from: '2026-09-01', to: '2026-11-29', granularity: 'week' as const }

beforeAll(async () => {
  database = await createTestDatabase()
  viewer = await createUser(db(), { role: 'viewer' })
})
afterAll(() => database.close())

const lists = () =>
  db()
    .selectFrom('analytics_sales_top')
    .select(['level', sql<string>`first_day::text`.as('first_day'), 'course_id', 'currency', 'units'])
    .orderBy('level')
    .orderBy('first_day')
    .orderBy('course_id')
    .execute()

describe('the best-seller lists of the staff page', () => {
  it('rank the courses sold as the orders do, rolled or live; a rerun writes the same lists', async () => {
    const creator = await createCreator(db(), { plan: 'pro' })
    const courses = await Promise.all(
      [0, 1, 2].map(() => createCreatorCourse(db(), creator, { status: 'published', lessons: 1 })),
    )
    // Three units of the first course over September and November, two of the second, one of the third today.
    const sales: [number, string][] = [
      [0, '2026-09-03T10:00:00Z'],
      [0, '2026-10-20T10:00:00Z'],
      [0, '2026-11-27T10:00:00Z'],
      [1, '2026-10-01T10:00:00Z'],
      [1, '2026-11-02T10:00:00Z'],
      [2, '2026-11-29T09:00:00Z'],
    ]
    for (const [index, at] of sales) {
      const course = courses[index]!
      const { orderId } = await sell(db(), [{ id: course.id, title: `Course ${index}`, price_minor: 4900 + index }])
      await db()
        .updateTable('orders')
        .set({ paid_at: new Date(at) })
        .where('id', '=', orderId)
        .execute()
    }
    const caller = await shopCaller(db(), viewer)
    const live = await caller.analytics.shop(RANGE)
    const mine = (report: typeof live) =>
      report.courses.filter((row) => courses.some((course) => course.id === row.courseId))
    expect(mine(live).map((row) => [row.courseId, row.units, row.grossMinor])).toEqual([
      [courses[0]!.id, 3, 3 * 4900],
      [courses[1]!.id, 2, 2 * 4901],
      [courses[2]!.id, 1, 4902],
    ])

    await runAnalyticsRollup(db(), NOW)
    // Every block of the range's rolled days is listed, with the units of the course over the block.
    const listed = await lists()
    for (const block of blocksOf('2026-09-03', '2026-11-28')) {
      const blockRow = await db()
        .selectFrom('analytics_sales_top_blocks')
        .select('rest_max_units')
        .where('level', '=', block.level)
        .where('first_day', '=', block.firstDay)
        .executeTakeFirst()
      expect(blockRow, `${block.level} ${block.firstDay}`).toEqual({ rest_max_units: null })
    }
    const day = listed.filter((row) => row.level === 0 && row.first_day === '2026-11-27')
    expect(day.map((row) => [row.course_id, row.units])).toContainEqual([courses[0]!.id, 1])
    const rolled = await caller.analytics.shop(RANGE)
    expect(mine(rolled)).toEqual(mine(live))
    expect(rolled.courses).toEqual(live.courses)

    // The page reads the lists: a course taken out of every list (its blocks still say they list all) is not ranked.
    await db().deleteFrom('analytics_sales_top').where('course_id', '=', courses[1]!.id).execute()
    expect(mine(await caller.analytics.shop(RANGE)).map((row) => row.courseId)).toEqual([
      courses[0]!.id,
      courses[2]!.id,
    ])

    // A rollup from scratch writes the same lists again.
    await db().deleteFrom('analytics_rollup_state').execute()
    await runAnalyticsRollup(db(), NOW)
    expect(await lists()).toEqual(listed)

    // Blocks not listed yet (days rolled before the lists existed): the page ranks every course meanwhile, and the
    // next run lists them.
    await db().deleteFrom('analytics_sales_top_blocks').where('level', '>=', 5).execute()
    await db().deleteFrom('analytics_sales_top').where('level', '>=', 5).execute()
    expect(await caller.analytics.shop(RANGE)).toEqual(rolled)
    await runAnalyticsRollup(db(), NOW)
    expect(await lists()).toEqual(listed)
  }, 60_000)
})

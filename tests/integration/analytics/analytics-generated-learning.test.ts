// Analytics (issue 35): the generated history (`npm run db:generate -- --days D`) makes learning in the generated
// creator's courses, and the creator's Pro sections show it: the generated creator is a Pro creator, learners by how
// far they got, each lesson's reach, video stops and quiz pass rate, ratings over time and refunds by reason equal
// what the generated rows say (counted here from the rows themselves), and the generator is deterministic (the same
// options and clock give the same counts).
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../db/seed/generate.ts'
import { GENERATED_CREATOR_EMAIL, generateHistory } from '../../../db/seed/generate-history.ts'
import { LESSONS_PER_COURSE, QUIZ_POSITIONS } from '../../../db/seed/generate-learning.ts'
import { STOP_BUCKET_SECONDS } from '../../../src-server/analytics/progress.ts'
import { runAnalyticsRollup } from '../../../src-server/analytics/rollup.ts'
import { makeCreator } from '../../../src-server/creators/profiles.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { shopCaller } from '../../support/shop.ts'

let database: TestDatabase
const db = () => database.db
const NOW = new Date('2026-06-15T12:00:00Z')
let totals: Awaited<ReturnType<typeof generateHistory>>

const generate = async () => {
  totals = await generateHistory(db(), {
    days: 20,
    ordersPerDay: 60,
    viewedCoursesPerDay: 100,
    learningCourses: 210,
    progressPerDay: 300,
    now: NOW,
    makeCreator,
  })
  await runAnalyticsRollup(db(), NOW)
}

beforeAll(async () => {
  database = await createTestDatabase()
  // 600 courses: the creator teaches every third (200); 210 courses have learners (the creator's and 10 others).
  await generateCatalogue(db(), { courses: 600 })
  await generate()
}, 120_000)
afterAll(() => database.close())

async function creatorCaller() {
  const user = await db()
    .selectFrom('users')
    .select(['id', 'email', 'role', 'first_name', 'last_name', 'avatar_url'])
    .where('email', '=', GENERATED_CREATOR_EMAIL)
    .executeTakeFirstOrThrow()
  const caller = await shopCaller(db(), {
    id: user.id,
    email: user.email,
    role: user.role,
    firstName: user.first_name,
    lastName: user.last_name,
    avatarUrl: user.avatar_url,
  })
  return { user, caller }
}

const creatorCourses = (userId: string) =>
  db().selectFrom('course_instructors').select('course_id').where('user_id', '=', userId)

describe('the generated learning history', () => {
  it('is deterministic: the same options and clock give these counts, on a second run too', async () => {
    // Rows in the generated courses ('gen-…'; the seed's courses have their own).
    const count = async (table: string) =>
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} where course_id like 'gen-%'`.execute(
            db(),
          )
        ).rows[0]?.n,
      )
    for (const run of ['first', 'second']) {
      if (run === 'second') await generate()
      expect(totals).toEqual({ learners: 1220, enrolments: 1840, courses: 210 })
      expect({
        lessons: await count('lessons'),
        quizzes: await count('quizzes'),
        progress: await count('lesson_progress'),
        completions: await count('course_completions'),
        attempts: await count('quiz_attempts'),
        reviews: await count('course_reviews'),
        // 8 lessons per course, 2 with a quiz.
      }).toEqual({
        lessons: 210 * 8,
        quizzes: 210 * 2,
        progress: 8637,
        completions: 267,
        attempts: 1717,
        reviews: 356,
      })
    }
    // A second generation inside the test: beforeAll's allowance (CI's 2 cores took 61 s under load).
  }, 120_000)

  it('gives the generated creator the Pro plan: every section is there', async () => {
    const { caller } = await creatorCaller()
    const report = await caller.analytics.creator({ from: '2026-05-27', to: '2026-06-15', granularity: 'day' })
    expect(report.plan).toBe('pro')
    expect(report.full).toBe(true)
    expect(report.funnel).not.toBeNull()
    expect(report.ratings).not.toBeNull()
    expect(report.refundReasons).not.toBeNull()
    expect(report.channels).not.toBeNull()
  })

  it('shows learners by how far they got, as the progress rows and completions say', async () => {
    const { user, caller } = await creatorCaller()
    const report = await caller.analytics.creator({ from: '2026-05-27', to: '2026-06-15', granularity: 'day' })
    const rows = await db()
      .selectFrom('lesson_progress')
      .select(['course_id', 'user_id', 'completed_at'])
      .where('course_id', 'in', creatorCourses(user.id))
      .execute()
    const completions = await db()
      .selectFrom('course_completions')
      .select('course_id')
      .where('course_id', 'in', creatorCourses(user.id))
      .execute()
    const done = new Map<string, Map<string, number>>()
    for (const row of rows) {
      const learners = done.get(row.course_id) ?? new Map<string, number>()
      learners.set(row.user_id, (learners.get(row.user_id) ?? 0) + (row.completed_at ? 1 : 0))
      done.set(row.course_id, learners)
    }
    const expected = [...done.entries()].map(([courseId, learners]) => {
      const counts = [...learners.values()]
      return {
        courseId,
        started: counts.length,
        p25: counts.filter((n) => n * 4 >= LESSONS_PER_COURSE).length,
        p50: counts.filter((n) => n * 2 >= LESSONS_PER_COURSE).length,
        p75: counts.filter((n) => n * 4 >= LESSONS_PER_COURSE * 3).length,
        completed: completions.filter((row) => row.course_id === courseId).length,
      }
    })
    expected.sort((a, b) => b.started - a.started || a.courseId.localeCompare(b.courseId))
    expect(report.learners).toHaveLength(50)
    expect(report.learners.map(({ title: _, ...row }) => row)).toEqual(expected.slice(0, 50))
    // Learners work through the lessons: fewer at each step, and some finish.
    const all = expected.reduce(
      (sum, row) => ({ started: sum.started + row.started, completed: sum.completed + row.completed }),
      { started: 0, completed: 0 },
    )
    expect(all).toEqual({ started: 1526, completed: 220 })
  })

  it('shows each lesson’s reach, video stops and quiz pass rate, as the rows say', async () => {
    const { user, caller } = await creatorCaller()
    const busiest = await db()
      .selectFrom('lesson_progress')
      .select(['course_id', (eb) => eb.fn.count<string>('user_id').distinct().as('n')])
      .where('course_id', 'in', creatorCourses(user.id))
      .groupBy('course_id')
      .orderBy('n', 'desc')
      .orderBy('course_id')
      .executeTakeFirstOrThrow()
    const lessons = await caller.analytics.creatorLessons({ courseId: busiest.course_id })
    expect(lessons.learners).toBe(Number(busiest.n))
    expect(lessons.lessons.map((lesson) => lesson.kind)).toEqual([
      'article',
      'video',
      'video',
      'article',
      'video',
      'video',
      'video',
      'article',
    ])
    const progress = await db()
      .selectFrom('lesson_progress')
      .select(['lesson_id', 'completed_at', 'watched_ranges'])
      .where('course_id', '=', busiest.course_id)
      .execute()
    const attempts = await db()
      .selectFrom('quiz_attempts')
      .select(['lesson_id', 'user_id', 'passed'])
      .where('course_id', '=', busiest.course_id)
      .execute()
    for (const lesson of lessons.lessons) {
      const mine = progress.filter((row) => row.lesson_id === lesson.lessonId)
      const stops: number[] = []
      for (const row of mine) {
        const end = row.watched_ranges.at(-1)?.[1]
        if (end === undefined) continue
        const bucket = Math.floor(end / STOP_BUCKET_SECONDS)
        while (stops.length <= bucket) stops.push(0)
        stops[bucket] = (stops[bucket] ?? 0) + 1
      }
      const taken = attempts.filter((row) => row.lesson_id === lesson.lessonId)
      expect(lesson).toMatchObject({
        reached: mine.length,
        completed: mine.filter((row) => row.completed_at).length,
        stopBuckets: stops,
        quizTakers: new Set(taken.map((row) => row.user_id)).size,
        quizPassers: new Set(taken.filter((row) => row.passed).map((row) => row.user_id)).size,
      })
      if (lesson.kind === 'video') {
        expect(lesson.durationSeconds).toBeGreaterThan(0)
        expect(stops.length).toBe(Math.floor(lesson.durationSeconds / STOP_BUCKET_SECONDS) + 1)
      }
    }
    const quizzes = lessons.lessons.filter((_, index) => QUIZ_POSITIONS.includes(index + 1))
    // Takers and passers of the course's two quizzes.
    expect(quizzes.map((lesson) => [lesson.quizTakers, lesson.quizPassers])).toEqual([
      [16, 13],
      [7, 4],
    ])
  })

  it('shows ratings over time and refunds by reason, as the reviews and refund requests say', async () => {
    const { user, caller } = await creatorCaller()
    const range = { from: '2026-05-27', to: '2026-06-15', granularity: 'week' as const }
    const report = await caller.analytics.creator(range)
    const reviews = await db()
      .selectFrom('course_reviews')
      .select(['rating'])
      .where('course_id', 'in', creatorCourses(user.id))
      .where('created_at', '>=', new Date('2026-05-27T00:00:00Z'))
      .where('created_at', '<', new Date('2026-06-16T00:00:00Z'))
      .execute()
    const stars = reviews.reduce((sum, row) => sum + row.rating, 0)
    expect(report.ratings?.totals).toEqual({
      reviews: reviews.length,
      average: Math.round((stars / reviews.length) * 10) / 10,
    })
    expect(report.ratings?.totals.reviews).toBe(298)
    const refunds = await sql<{ reason: string | null; currency: string }>`
      select rq.reason, o.currency from order_items oi join orders o on o.id = oi.order_id
      left join refund_requests rq on rq.order_item_id = oi.id
      where oi.course_id in (select course_id from course_instructors where user_id = ${user.id})
        and oi.refunded_at >= ${new Date('2026-05-27T00:00:00Z')} and oi.refunded_at < ${new Date('2026-06-16T00:00:00Z')}`.execute(
      db(),
    )
    expect(report.refundReasons?.refunds).toBe(refunds.rows.length)
    const byReason = new Map<string, number>()
    for (const row of refunds.rows) {
      const key = `${row.currency} ${row.reason ?? ''}`
      byReason.set(key, (byReason.get(key) ?? 0) + 1)
    }
    expect(
      Object.fromEntries(report.refundReasons?.rows.map((row) => [`${row.currency} ${row.reason}`, row.refunds]) ?? []),
    ).toEqual(Object.fromEntries(byReason))
  })
})

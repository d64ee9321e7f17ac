// Analytics (issue 35): the daily rollup is idempotent (a rerun writes the same rows), a refund given next month
// lands on its own day and month, days not rolled up are read live, a creator sees only their courses (Basic only
// revenue and students), and progress, reach and video drop-off come from the learners' rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { flushCourseEvents } from '../../../src-server/analytics/counters.ts'
import { refreshChangedCourses, runAnalyticsRollup } from '../../../src-server/analytics/rollup.ts'
import { analyticsCsv } from '../../../src-server/flows/analytics-csv.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { sell } from '../../support/earnings.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { shopCaller } from '../../support/shop.ts'

let database: TestDatabase
let admin: TestUser
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => database.close())

const rolledRows = () =>
  db().selectFrom('analytics_sales_daily').selectAll().orderBy('day').orderBy('course_id').orderBy('currency').execute()

async function soldAndRefunded() {
  const creator = await createCreator(db(), { plan: 'pro' })
  const course = await createCreatorCourse(db(), creator, { status: 'published', lessons: 4 })
  const sold = { id: course.id, title: 'Sold course', price_minor: 4900 }
  const first = await sell(db(), [sold])
  const second = await sell(db(), [sold])
  // Both paid on 15 October; the second given back on 3 November (the next month).
  await db()
    .updateTable('orders')
    .set({ paid_at: new Date('2026-10-15T10:00:00Z') })
    .where('id', 'in', [first.orderId, second.orderId])
    .execute()
  await refundOrder(
    db(),
    {
      orderId: second.orderId,
      reference: 'BANK-1',
      reason: 'Changed my mind',
      actor: { id: admin.id, email: admin.email },
    },
    null,
  )
  await db()
    .updateTable('order_items')
    .set({ refunded_at: new Date('2026-11-03T09:00:00Z') })
    .where('order_id', '=', second.orderId)
    .execute()
  return { creator, course }
}

describe('the daily sales rollup', () => {
  it('puts a sale on its day and a refund next month on its own day; a rerun writes the same rows', async () => {
    const { creator, course } = await soldAndRefunded()
    await runAnalyticsRollup(db(), new Date('2026-11-29T12:00:00Z'))
    const mine = (await rolledRows()).filter((row) => row.course_id === course.id)
    expect(mine.map((row) => ({ ...row, day: String(row.day) }))).toHaveLength(2)
    const caller = await shopCaller(db(), creator)

    const october = await caller.analytics.creator({ from: '2026-10-01', to: '2026-10-31', granularity: 'month' })
    expect(october.revenue).toEqual([
      expect.objectContaining({
        currency: 'USD',
        points: [
          {
            period: '2026-10',
            grossMinor: 9800,
            discountMinor: 0,
            refundMinor: 0,
            platformFeeMinor: 490,
            netMinor: 9310,
            units: 2,
            refunds: 0,
          },
        ],
      }),
    ])
    const november = await caller.analytics.creator({ from: '2026-11-01', to: '2026-11-28', granularity: 'month' })
    expect(november.revenue[0]?.points[0]).toEqual({
      period: '2026-11',
      grossMinor: 0,
      discountMinor: 0,
      refundMinor: 4900,
      platformFeeMinor: -245,
      netMinor: -4655,
      units: 0,
      refunds: 1,
    })
    // The previous period of November is October.
    expect(november.revenue[0]?.previous.netMinor).toBe(9310)
    // By day: the refund is on 3 November, the other days are zero, not missing.
    const days = await caller.analytics.creator({ from: '2026-11-01', to: '2026-11-05', granularity: 'day' })
    expect(days.revenue[0]?.points.map((point) => point.refundMinor)).toEqual([0, 0, 4900, 0, 0])

    // A rerun (from scratch, and again incrementally) gives the same rows.
    const before = await rolledRows()
    await db().deleteFrom('analytics_rollup_state').execute()
    await runAnalyticsRollup(db(), new Date('2026-11-29T12:00:00Z'))
    expect(await rolledRows()).toEqual(before)
    await runAnalyticsRollup(db(), new Date('2026-11-29T12:00:00Z'))
    expect(await rolledRows()).toEqual(before)
    // Three rollups of about 45 days each (sales, ratings, refund reasons) on a loaded machine.
  }, 60_000)

  it('reads days after the rollup live', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const course = await createCreatorCourse(db(), creator, { status: 'published', lessons: 2 })
    await runAnalyticsRollup(db())
    const { orderId } = await sell(db(), [{ id: course.id, title: 'Live', price_minor: 4900 }])
    const paid = await db().selectFrom('orders').select('paid_at').where('id', '=', orderId).executeTakeFirstOrThrow()
    const day = paid.paid_at!.toISOString().slice(0, 10)
    const report = await (await shopCaller(db(), creator)).analytics.creator({ from: day, to: day, granularity: 'day' })
    // Basic: 10 % fee on 49.00; revenue and students only.
    expect(report.revenue[0]?.totals).toMatchObject({
      grossMinor: 4900,
      platformFeeMinor: 490,
      netMinor: 4410,
      units: 1,
    })
    expect(report.full).toBe(false)
    expect(report.funnel).toBeNull()
    expect(report.channels).toBeNull()
  })
})

describe('ownership and plans', () => {
  it('shows a creator only their own courses; lessons of another’s course are not found', async () => {
    const { course } = await soldAndRefunded()
    const other = await createCreator(db(), { plan: 'pro' })
    const caller = await shopCaller(db(), other)
    const report = await caller.analytics.creator({ from: '2026-10-01', to: '2026-11-28', granularity: 'month' })
    expect(report.revenue).toEqual([])
    expect(report.courses).toEqual([])
    await expect(caller.analytics.creatorLessons({ courseId: course.id })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const customer = await shopCaller(db(), await createUser(db()))
    await expect(
      customer.analytics.shop({ from: '2026-10-01', to: '2026-10-02', granularity: 'day' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(
      customer.analytics.creator({ from: '2026-10-01', to: '2026-10-02', granularity: 'day' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })

  it('refuses lesson analytics on Basic', async () => {
    const creator = await createCreator(db(), { plan: 'basic' })
    const course = await createCreatorCourse(db(), creator, { status: 'published', lessons: 2 })
    const caller = await shopCaller(db(), creator)
    await expect(caller.analytics.creatorLessons({ courseId: course.id })).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })
})

describe('learners, lessons and the course page', () => {
  it('counts progress buckets, reach and where video viewers stopped', async () => {
    const creator = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), creator, { status: 'published', lessons: 4 })
    const [a, b] = [await createUser(db()), await createUser(db())]
    const [l1, l2, l3] = course.lessonIds
    const progress = (userId: string, lessonId: string, done: boolean, ranges: [number, number][] = []) =>
      db()
        .insertInto('lesson_progress')
        .values({
          user_id: userId,
          course_id: course.id,
          lesson_id: lessonId!,
          watched_ranges: JSON.stringify(ranges),
          completed_at: done ? new Date() : null,
        })
        .execute()
    // a: 3 of 4 lessons done (75 %), stopped the first at 0:35; b: 1 of 4 (25 %), stopped it at 0:12.
    await progress(a.id, l1!, true, [[0, 35]])
    await progress(a.id, l2!, true)
    await progress(a.id, l3!, true)
    await progress(b.id, l1!, true, [
      [0, 5],
      [8, 12.5],
    ])
    await refreshChangedCourses(db())
    const caller = await shopCaller(db(), creator)
    const report = await caller.analytics.creator({ from: '2026-11-01', to: '2026-11-02', granularity: 'day' })
    expect(report.learners).toEqual([
      { courseId: course.id, title: expect.any(String), started: 2, p25: 2, p50: 1, p75: 1, completed: 0 },
    ])
    const lessons = await caller.analytics.creatorLessons({ courseId: course.id })
    expect(lessons.learners).toBe(2)
    expect(lessons.lessons[0]).toMatchObject({ reached: 2, completed: 2, stopBuckets: [0, 1, 0, 1] })
    expect(lessons.lessons.map((lesson) => lesson.reached)).toEqual([2, 1, 1, 0])
  })

  it('counts a course page view from a browser, not from a bot or with Do Not Track', async () => {
    const creator = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), creator, { status: 'published', lessons: 1 })
    const { createContextInner } = await import('../../../src-server/trpc/context.ts')
    const { createCaller } = await import('../../../src-server/routers/_app.ts')
    const visit = (headers: Record<string, string>) =>
      createCaller({
        ...createContextInner({ db: db(), user: null, session: null }),
        req: { headers } as never,
      }).analytics.courseViewed({ courseId: course.id })
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36'
    expect(await visit({ 'user-agent': browser })).toEqual({ counted: true })
    expect(await visit({ 'user-agent': browser })).toEqual({ counted: true })
    expect(await visit({ 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' })).toEqual({ counted: false })
    expect(await visit({ 'user-agent': browser, dnt: '1' })).toEqual({ counted: false })
    expect(await visit({ 'user-agent': browser, 'sec-gpc': '1' })).toEqual({ counted: false })
    await flushCourseEvents(db())
    const row = await db()
      .selectFrom('course_event_counts')
      .select(['views'])
      .where('course_id', '=', course.id)
      .executeTakeFirstOrThrow()
    expect(row.views).toBe(2)
  })
})

describe('ratings over time and refunds with their reasons', () => {
  const dayText = (day: unknown) => (day instanceof Date ? day.toISOString().slice(0, 10) : String(day))
  const rolledFeedback = async () => ({
    ratings: await db().selectFrom('analytics_ratings_daily').selectAll().orderBy('day').orderBy('course_id').execute(),
    reasons: await db()
      .selectFrom('analytics_refund_reasons_daily')
      .selectAll()
      .orderBy('day')
      .orderBy('course_id')
      .orderBy('reason')
      .execute(),
  })

  it('rolls reviews per day (hidden ones not) and refunds under the buyer’s reason, else staff’s note', async () => {
    const creator = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), creator, { status: 'published', lessons: 2 })
    const sold = { id: course.id, title: 'Feedback course', price_minor: 4900 }
    const [asked, noted, silent] = [await sell(db(), [sold]), await sell(db(), [sold]), await sell(db(), [sold])]
    // The buyer asks with a reason and staff approve; staff refund another with a note; a third with none.
    const buyer = await shopCaller(db(), asked.buyer)
    await buyer.purchases.requestRefund({ lineId: asked.lineIds[0]!, reason: 'The audio is too quiet' })
    const request = await db()
      .selectFrom('refund_requests')
      .select('id')
      .where('order_item_id', '=', asked.lineIds[0]!)
      .executeTakeFirstOrThrow()
    const staff = await shopCaller(db(), admin)
    await staff.admin.orders.decideRequest({ requestId: request.id, decision: 'approve', reference: 'BANK-RQ' })
    await staff.admin.orders.refund({ orderId: noted.orderId, reference: 'BANK-N', reason: 'Bought twice' })
    await staff.admin.orders.refund({ orderId: silent.orderId, reference: 'BANK-S' })
    // Sold on 19 October (not before the other tests' sales: a rollup from scratch starts at the first); two refunds
    // on 20 October, one on 27 October.
    await db()
      .updateTable('orders')
      .set({ paid_at: new Date('2026-10-19T10:00:00Z') })
      .where('id', 'in', [asked.orderId, noted.orderId, silent.orderId])
      .execute()
    await db()
      .updateTable('order_items')
      .set({ refunded_at: new Date('2026-10-20T10:00:00Z') })
      .where('order_id', 'in', [asked.orderId, noted.orderId])
      .execute()
    await db()
      .updateTable('order_items')
      .set({ refunded_at: new Date('2026-10-27T10:00:00Z') })
      .where('order_id', '=', silent.orderId)
      .execute()
    // Reviews: 5 and 3 stars on 20 October, 4 on 26 October, and a hidden 1-star one that counts nowhere.
    const reviewers = [await createUser(db()), await createUser(db()), await createUser(db()), await createUser(db())]
    const reviews: [number, string, boolean][] = [
      [5, '2026-10-20T08:00:00Z', false],
      [3, '2026-10-20T20:00:00Z', false],
      [4, '2026-10-26T12:00:00Z', false],
      [1, '2026-10-26T13:00:00Z', true],
    ]
    await db()
      .insertInto('course_reviews')
      .values(
        reviews.map(([rating, at, hidden], index) => ({
          course_id: course.id,
          user_id: reviewers[index]!.id,
          rating,
          created_at: new Date(at),
          hidden_at: hidden ? new Date(at) : null,
        })),
      )
      .execute()

    const caller = await shopCaller(db(), creator)
    const range = { from: '2026-10-19', to: '2026-11-01', granularity: 'week' } as const
    // Read live first (the earlier tests' watermark dropped: nothing rolled), then from the rollup: the same figures.
    await db().deleteFrom('analytics_rollup_state').execute()
    const live = await caller.analytics.creator(range)
    await runAnalyticsRollup(db(), new Date('2026-11-29T12:00:00Z'))
    const rolled = await caller.analytics.creator(range)
    for (const report of [live, rolled]) {
      expect(report.ratings?.points).toEqual([
        // Weeks start on Monday: 19 and 26 October.
        { period: '2026-10-19', reviews: 2, average: 4 },
        { period: '2026-10-26', reviews: 1, average: 4 },
      ])
      expect(report.ratings?.totals).toEqual({ reviews: 3, average: 4 })
      expect(report.refundReasons).toEqual({
        rows: [
          { currency: 'USD', reason: '', refunds: 1, refundMinor: 4900 },
          { currency: 'USD', reason: 'Bought twice', refunds: 1, refundMinor: 4900 },
          { currency: 'USD', reason: 'The audio is too quiet', refunds: 1, refundMinor: 4900 },
        ],
        refunds: 3,
        previousRefunds: 0,
      })
    }
    // The CSV carries the same figures.
    const csv = analyticsCsv(rolled)
    expect(csv).toContain('"Ratings","Reviews","Average stars"\r\n"2026-10-19","2","4"\r\n"2026-10-26","1","4"')
    expect(csv).toContain('"No reason given","USD","1","49.00"\r\n"Bought twice","USD","1","49.00"')
    const mine = await rolledFeedback()
    expect(
      mine.ratings
        .filter((row) => row.course_id === course.id)
        .map((row) => [dayText(row.day), row.reviews, row.stars]),
    ).toEqual([
      ['2026-10-20', 2, 8],
      ['2026-10-26', 1, 4],
    ])
    // The next period sees these as its previous one; an empty period is zero.
    const after = await caller.analytics.creator({ from: '2026-11-02', to: '2026-11-15', granularity: 'week' })
    expect(after.ratings?.previous).toEqual({ reviews: 3, average: 4 })
    expect(after.ratings?.points.every((point) => point.reviews === 0 && point.average === 0)).toBe(true)
    expect(after.refundReasons).toMatchObject({ rows: [], refunds: 0, previousRefunds: 3 })

    // A rerun from scratch, and again incrementally, writes the same rows.
    await db().deleteFrom('analytics_rollup_state').execute()
    await runAnalyticsRollup(db(), new Date('2026-11-29T12:00:00Z'))
    expect(await rolledFeedback()).toEqual(mine)
    await runAnalyticsRollup(db(), new Date('2026-11-29T12:00:00Z'))
    expect(await rolledFeedback()).toEqual(mine)

    // Basic sees neither; staff see them shop-wide.
    const shop = await staff.analytics.shop(range)
    expect(shop.refundReasons?.rows).toEqual(
      expect.arrayContaining([{ currency: 'USD', reason: 'The audio is too quiet', refunds: 1, refundMinor: 4900 }]),
    )
    const basic = await createCreator(db(), { plan: 'basic' })
    const basicReport = await (await shopCaller(db(), basic)).analytics.creator(range)
    expect(basicReport.ratings).toBeNull()
    expect(basicReport.refundReasons).toBeNull()
    // Three rollups from the first sale (about 45 days each) on a loaded machine.
  }, 120_000)
})

// Analytics (issue 35): catalogue vs search as a sale's channel. The course page's `?from=` rides on cart.add, the
// cart line keeps it, the order line copies it, and the daily rollup counts it (a rerun writes the same rows); a
// coupon, bundle or gift still counts first, and any other marker is a direct sale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { flushCourseEvents } from '../../../src-server/analytics/counters.ts'
import { runAnalyticsRollup } from '../../../src-server/analytics/rollup.ts'
import { analyticsCsv } from '../../../src-server/flows/analytics-csv.ts'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { shopCaller } from '../../support/shop.ts'

let database: TestDatabase
const db = () => database.db
const DAY = '2026-10-20'
const NOW = new Date('2026-11-29T12:00:00Z')

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

const rolledRows = () =>
  db().selectFrom('analytics_sales_daily').selectAll().orderBy('day').orderBy('course_id').orderBy('currency').execute()

const shopRows = () =>
  db().selectFrom('analytics_shop_sales_daily').selectAll().orderBy('day').orderBy('currency').execute()

/** A buyer adds the courses with the markers given, checks out by bank transfer, and staff mark it paid on DAY. */
async function buy(adds: { courseId: string; from?: string }[]) {
  const buyer = await createUser(db())
  const caller = await shopCaller(db(), buyer)
  for (const add of adds) {
    // What a tampered address sends is not refused: it is a direct sale.
    await caller.cart.add({
      kind: 'course',
      courseId: add.courseId,
      ...(add.from ? { from: add.from as 'search' } : {}),
    })
  }
  const order = await createFromCart(db(), {
    userId: buyer.id,
    currency: 'USD',
    method: 'bank_transfer',
    referencePrefix: 'SF',
  })
  expect(await markPaid(db(), order.id, { source: 'staff' })).toBe('fulfilled')
  await db()
    .updateTable('orders')
    .set({ paid_at: new Date(`${DAY}T10:00:00Z`) })
    .where('id', '=', order.id)
    .execute()
  return { buyer, orderId: order.id }
}

describe('sales by channel: catalogue vs search', () => {
  it('counts a search-marked sale as search, a browsed one as catalogue, the rest direct; a rerun writes the same rows', async () => {
    const creator = await createCreator(db(), { plan: 'pro' })
    const courses = await Promise.all(
      Array.from({ length: 5 }, () => createCreatorCourse(db(), creator, { status: 'published', lessons: 1 })),
    )
    const [searched, browsed, direct, tampered, discounted] = courses.map((course) => course!.id) as [
      string,
      string,
      string,
      string,
      string,
    ]

    const { orderId } = await buy([
      { courseId: searched, from: 'search' },
      { courseId: browsed, from: 'catalogue' },
      { courseId: direct },
      { courseId: tampered, from: 'newsletter' },
    ])
    // The order's lines copied the cart lines' channels (null: direct).
    const lines = await db()
      .selectFrom('order_items')
      .select(['course_id', 'channel'])
      .where('order_id', '=', orderId)
      .execute()
    expect(Object.fromEntries(lines.map((line) => [line.course_id, line.channel]))).toEqual({
      [searched]: 'search',
      [browsed]: 'catalogue',
      [direct]: null,
      [tampered]: null,
    })

    // A coupon counts before search: a discounted search-marked line is a coupon sale.
    const second = await buy([{ courseId: discounted, from: 'search' }])
    await db().updateTable('order_items').set({ discount_minor: 500 }).where('order_id', '=', second.orderId).execute()

    const caller = await shopCaller(db(), creator)
    const range = { from: DAY, to: DAY, granularity: 'day' as const }
    const expected = { direct: 2, search: 1, catalogue: 1, coupon: 1, bundle: 0, gift: 0 }

    // Read live (nothing rolled up yet), then from the rollup: the same channels, for the creator and shop-wide
    // (staff read the shop's daily totals).
    const live = await caller.analytics.creator(range)
    expect(live.channels).toEqual(expected)
    const staff = await shopCaller(db(), await createUser(db(), { role: 'viewer' }))
    const shopLive = await staff.analytics.shop(range)
    expect(shopLive.channels).toEqual(expected)
    await runAnalyticsRollup(db(), NOW)
    const shopRolled = await staff.analytics.shop(range)
    expect(shopRolled.channels).toEqual(expected)
    expect(shopRolled.revenue).toEqual(shopLive.revenue)
    expect(await shopRows()).toEqual([
      expect.objectContaining({ day: expect.anything(), currency: 'USD', units: 5, units_search: 1, units_direct: 2 }),
    ])
    const rolledRow = (await rolledRows()).find((row) => row.course_id === searched)
    expect(rolledRow).toMatchObject({ units: 1, units_search: 1, units_catalogue: 0, units_direct: 0 })
    const rolled = await caller.analytics.creator(range)
    expect(rolled.channels).toEqual(expected)

    // A rerun (from scratch, then incrementally) writes the same rows.
    const before = await rolledRows()
    const shopBefore = await shopRows()
    await db().deleteFrom('analytics_rollup_state').execute()
    await runAnalyticsRollup(db(), NOW)
    expect(await rolledRows()).toEqual(before)
    expect(await shopRows()).toEqual(shopBefore)
    await runAnalyticsRollup(db(), NOW)
    expect(await rolledRows()).toEqual(before)
    expect(await shopRows()).toEqual(shopBefore)

    // The CSV lists the same units by channel.
    expect(analyticsCsv(rolled)).toContain(
      '"Channel","Units sold"\r\n"Direct","2"\r\n"Search","1"\r\n"Catalogue","1"\r\n"Coupon","1"\r\n"Bundle","0"\r\n"Gift","0"',
    )
  }, 60_000)

  it('keeps the channel a course was first added with, and only on course lines', async () => {
    const creator = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), creator, { status: 'published', lessons: 1 })
    const buyer = await createUser(db())
    const caller = await shopCaller(db(), buyer)
    await caller.cart.add({ kind: 'course', courseId: course!.id, from: 'catalogue' })
    await expect(caller.cart.add({ kind: 'course', courseId: course!.id, from: 'search' })).rejects.toMatchObject({
      code: 'CONFLICT',
    })
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    const rows = await db()
      .selectFrom('cart_items')
      .select(['kind', 'channel'])
      .where('user_id', '=', buyer.id)
      .orderBy('kind')
      .execute()
    expect(rows).toEqual([
      { kind: 'course', channel: 'catalogue' },
      { kind: 'plan', channel: null },
    ])
  })

  it('counts course-page views by channel; the page, its CSV and a rollup rerun agree', async () => {
    const creator = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), creator, { status: 'published', lessons: 1 })
    const other = await createCreatorCourse(db(), creator, { status: 'published', lessons: 1 })
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36'
    const visit = (courseId: string, from?: string, headers: Record<string, string> = { 'user-agent': browser }) =>
      createCaller({
        ...createContextInner({ db: db(), user: null, session: null }),
        req: { headers } as never,
      }).analytics.courseViewed({ courseId, ...(from ? { from: from as 'search' } : {}) })
    await visit(course.id, 'search')
    await visit(course.id, 'search')
    await visit(course.id, 'catalogue')
    await visit(course.id)
    // An unknown marker is a direct view, not refused; a bot's view counts nowhere.
    expect(await visit(other.id, 'newsletter')).toEqual({ counted: true })
    expect(await visit(course.id, 'search', { 'user-agent': 'Googlebot/2.1' })).toEqual({ counted: false })
    await flushCourseEvents(db())

    const counted = () =>
      db()
        .selectFrom('course_event_counts')
        .select(['course_id', 'views', 'views_search', 'views_catalogue', 'cart_adds'])
        .where('course_id', 'in', [course.id, other.id])
        .orderBy('course_id')
        .execute()
    expect((await counted()).find((row) => row.course_id === course.id)).toEqual({
      course_id: course.id,
      views: 4,
      views_search: 2,
      views_catalogue: 1,
      cart_adds: 0,
    })

    const today = clock.now().toISOString().slice(0, 10)
    const range = { from: today, to: today, granularity: 'day' as const }
    const caller = await shopCaller(db(), creator)
    const live = await caller.analytics.creator(range)
    expect(live.funnel?.views.totals).toEqual({ direct: 2, search: 2, catalogue: 1 })
    expect(live.funnel?.views.points).toEqual([{ period: today, direct: 2, search: 2, catalogue: 1 }])
    expect(live.funnel?.totals.views).toBe(5)
    // Staff see the same views in the shop-wide report (with other tests' courses: at least these).
    const staff = await shopCaller(db(), await createUser(db(), { role: 'viewer' }))
    const shop = await staff.analytics.shop(range)
    expect(shop.funnel?.views.totals.search).toBeGreaterThanOrEqual(2)

    // The rollup (run twice) leaves the counters as they are and writes the shop's day once: staff then read the
    // rolled day, and see what they saw live.
    const before = await counted()
    const shopDay = () =>
      db().selectFrom('analytics_shop_views_daily').selectAll().where('day', '=', today).executeTakeFirstOrThrow()
    await runAnalyticsRollup(db(), new Date(clock.now().getTime() + 86_400_000))
    const rolledDay = await shopDay()
    await runAnalyticsRollup(db(), new Date(clock.now().getTime() + 86_400_000))
    expect(await counted()).toEqual(before)
    expect(await shopDay()).toEqual(rolledDay)
    expect(Number(rolledDay.views_search)).toBe(shop.funnel?.views.totals.search)
    expect((await staff.analytics.shop(range)).funnel?.views).toEqual(shop.funnel?.views)
    const rolled = await caller.analytics.creator(range)
    expect(rolled.funnel?.views).toEqual(live.funnel?.views)
    // The other tests roll their own days from scratch.
    await db().deleteFrom('analytics_rollup_state').execute()

    expect(analyticsCsv(rolled)).toContain(
      `"Course page views by channel","Direct","Search","Catalogue"\r\n"${today}","2","2","1"`,
    )
  })
})

// The access ledger (access/ledger.ts): grant, revoke and restore are idempotent, and every access function
// (canOpenCourse, ownsCourse, ownedCourseIds, listOwnedCourses, courseHasLearners, isPremium, entitlementsOf) answers
// from it. The migration that moved enrolments, subscriptions and service orders into it is replayed on old rows.
import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as ledgerMigration from '../../../db/migrations/2026_11_24_1000_access_ledger.ts'
import { insertCourse } from '../../../db/seed/factories.ts'
import {
  canOpenCourse,
  courseHasLearners,
  listOwnedCourses,
  ownedCourseIds,
  ownsCourse,
} from '../../../src-server/access/courses.ts'
import { grant, liveGrants, restore, revoke } from '../../../src-server/access/ledger.ts'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { entitlementsOf, isPremium } from '../../../src-server/subscriptions/premium.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { publishedCourse, servicePackage, shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db
const DAY = 86_400_000

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

/** A paid order (bank transfer confirmed by staff) for what `add` puts in a new buyer's cart. */
async function paidOrder(add: (caller: Awaited<ReturnType<typeof shopCaller>>) => Promise<unknown>) {
  const user = await createUser(db())
  await add(await shopCaller(db(), user))
  const order = await createFromCart(db(), {
    userId: user.id,
    currency: 'USD',
    method: 'bank_transfer',
    referencePrefix: 'SF',
  })
  expect(await markPaid(db(), order.id, { source: 'staff' })).toBe('fulfilled')
  const items = await db().selectFrom('order_items').select(['id', 'kind']).where('order_id', '=', order.id).execute()
  return { user, orderId: order.id, items }
}

const grantRows = (userId: string) =>
  db()
    .selectFrom('access_grants')
    .select(['kind', 'course_id', 'source', 'revoked_reason'])
    .where('user_id', '=', userId)
    .orderBy('kind')
    .execute()

describe('grant', () => {
  it('is idempotent per right and source, and leaves a revoked grant revoked', async () => {
    const user = await createUser(db())
    const course = await publishedCourse(db(), 0)
    const input = {
      userId: user.id,
      right: { kind: 'course', courseId: course.id },
      source: { kind: 'staff' },
    } as const
    const first = await grant(db(), input)
    const again = await grant(db(), input)
    expect(first.created).toBe(true)
    expect(again).toEqual({ id: first.id, created: false })
    expect(await ownsCourse(db(), user.id, course.id)).toBe(true)

    expect(await revoke(db(), { grantId: first.id }, 'refund')).toBe(1)
    expect(await grant(db(), input)).toEqual({ id: first.id, created: false })
    expect(await ownsCourse(db(), user.id, course.id)).toBe(false)

    // The same course from another source is another grant.
    const free = await grant(db(), { ...input, source: { kind: 'free_enrolment' } })
    expect(free.created).toBe(true)
    expect(await ownsCourse(db(), user.id, course.id)).toBe(true)
  })

  it('a paid order grants each course and service once, however often it is paid', async () => {
    const course = await publishedCourse(db(), 1)
    const pkg = await servicePackage(db(), 'seo-audit', 'Essential Audit')
    const { user, orderId } = await paidOrder(async (caller) => {
      await caller.cart.add({ kind: 'course', courseId: course.id })
      await caller.cart.add({ kind: 'service_package', packageId: pkg.id })
    })
    expect(await markPaid(db(), orderId, { source: 'staff' })).toBe('already_paid')
    expect(await grantRows(user.id)).toEqual([
      { kind: 'course', course_id: course.id, source: 'order_item', revoked_reason: null },
      { kind: 'service', course_id: null, source: 'order_item', revoked_reason: null },
    ])
  })
})

describe('grantForPaidOrder (through markPaid)', () => {
  it('a paid order with a course, a service package and a plan grants exactly those three rights', async () => {
    const course = await publishedCourse(db(), 6)
    const pkg = await servicePackage(db(), 'seo-audit', 'Essential Audit')
    const { user, orderId } = await paidOrder(async (caller) => {
      await caller.cart.add({ kind: 'course', courseId: course.id })
      await caller.cart.add({ kind: 'service_package', packageId: pkg.id })
      await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    })
    const itemOf = async (kind: 'course' | 'service_package' | 'plan') =>
      (
        await db()
          .selectFrom('order_items')
          .select('id')
          .where('order_id', '=', orderId)
          .where('kind', '=', kind)
          .executeTakeFirstOrThrow()
      ).id
    const subscriptions = await db()
      .selectFrom('subscriptions')
      .select(['id', 'plan_id', 'billing_cycle', 'status', 'order_id'])
      .where('user_id', '=', user.id)
      .execute()
    expect(subscriptions).toEqual([
      { id: expect.any(String), plan_id: 'basic', billing_cycle: 'monthly', status: 'active', order_id: orderId },
    ])
    const rights = await db()
      .selectFrom('access_grants')
      .select(['kind', 'course_id', 'service_package_id', 'source', 'order_id', 'order_item_id', 'subscription_id'])
      .where('user_id', '=', user.id)
      .orderBy('kind')
      .execute()
    expect(rights).toEqual([
      {
        kind: 'course',
        course_id: course.id,
        service_package_id: null,
        source: 'order_item',
        order_id: orderId,
        order_item_id: await itemOf('course'),
        subscription_id: null,
      },
      {
        kind: 'premium',
        course_id: null,
        service_package_id: null,
        source: 'subscription',
        order_id: null,
        order_item_id: null,
        subscription_id: subscriptions[0]!.id,
      },
      {
        kind: 'service',
        course_id: null,
        service_package_id: pkg.id,
        source: 'order_item',
        order_id: orderId,
        order_item_id: await itemOf('service_package'),
        subscription_id: null,
      },
    ])
    expect(await itemOf('plan')).toEqual(expect.any(String))
  })

  it('a line whose course, package or plan was deleted while the order waited grants nothing; the payment stands', async () => {
    // Order lines outlive what they sold (their reference is set to null), so paying later must skip them.
    const category = await db().selectFrom('categories').select('id').limit(1).executeTakeFirstOrThrow()
    await insertCourse(db(), {
      id: 'deleted-while-pending',
      title: 'Deleted while pending',
      category_id: category.id,
      status: 'published',
      price_minor: 2500,
    })
    const service = await db().selectFrom('services').select('id').limit(1).executeTakeFirstOrThrow()
    const pkg = await db()
      .insertInto('service_packages')
      .values({
        service_id: service.id,
        position: 99,
        name: 'Deleted while pending',
        price_minor: 4000,
        currency: 'USD',
        description: '',
        features: '[]',
        processing_time: '',
        billing_interval: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db()
      .insertInto('plans')
      .values({
        id: 'deleted-while-pending',
        name: 'Gone',
        description: 'Withdrawn while an order waited',
        monthly_price_minor: 900,
        annual_price_minor: 9000,
        features: '[]',
        badge: null,
        position: 99,
      })
      .execute()
    const user = await createUser(db())
    const caller = await shopCaller(db(), user)
    await caller.cart.add({ kind: 'course', courseId: 'deleted-while-pending' })
    await caller.cart.add({ kind: 'service_package', packageId: pkg.id })
    await caller.cart.add({ kind: 'plan', planId: 'deleted-while-pending', billingCycle: 'monthly' })
    const order = await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'bank_transfer',
      referencePrefix: 'SF',
    })
    await db().deleteFrom('courses').where('id', '=', 'deleted-while-pending').execute()
    await db().deleteFrom('service_packages').where('id', '=', pkg.id).execute()
    await db().deleteFrom('plans').where('id', '=', 'deleted-while-pending').execute()
    const lines = await db()
      .selectFrom('order_items')
      .select(['kind', 'course_id', 'service_package_id', 'plan_id', 'billing_cycle'])
      .where('order_id', '=', order.id)
      .orderBy('kind')
      .execute()
    expect(lines).toEqual([
      { kind: 'course', course_id: null, service_package_id: null, plan_id: null, billing_cycle: null },
      { kind: 'plan', course_id: null, service_package_id: null, plan_id: null, billing_cycle: 'monthly' },
      { kind: 'service_package', course_id: null, service_package_id: null, plan_id: null, billing_cycle: null },
    ])

    expect(await markPaid(db(), order.id, { source: 'staff' })).toBe('fulfilled')
    expect(await grantRows(user.id)).toEqual([])
    expect(await db().selectFrom('subscriptions').select('id').where('user_id', '=', user.id).execute()).toEqual([])
  })
})

describe('My Courses (purchases.myCourses)', () => {
  it('shows a course held twice once, dated from its first grant', async () => {
    const course = await publishedCourse(db(), 7)
    const { user, orderId } = await paidOrder((caller) => caller.cart.add({ kind: 'course', courseId: course.id }))
    const bought = await db()
      .selectFrom('access_grants')
      .select('starts_at')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    await new Promise((resolve) => setTimeout(resolve, 5))
    // Staff give the same course again later: a second live grant.
    const given = await grant(db(), {
      userId: user.id,
      right: { kind: 'course', courseId: course.id },
      source: { kind: 'staff' },
    })
    const { starts_at: givenAt } = await db()
      .selectFrom('access_grants')
      .select('starts_at')
      .where('id', '=', given.id)
      .executeTakeFirstOrThrow()
    expect(givenAt.getTime()).toBeGreaterThan(bought.starts_at.getTime())
    const shown = await db()
      .selectFrom('courses')
      .select(['id', 'title', 'instructor_name as instructor', 'image_url as image'])
      .where('id', '=', course.id)
      .executeTakeFirstOrThrow()
    expect(await (await shopCaller(db(), user)).purchases.myCourses()).toEqual([
      { ...shown, enrolledAt: bought.starts_at.toISOString() },
    ])
  })
})

describe('revoke and restore', () => {
  it('by order item, by order and by grant: repeats change nothing; restore gives back only its reason', async () => {
    const courseA = await publishedCourse(db(), 2)
    const courseB = await publishedCourse(db(), 3)
    const { user, orderId, items } = await paidOrder(async (caller) => {
      await caller.cart.add({ kind: 'course', courseId: courseA.id })
      await caller.cart.add({ kind: 'course', courseId: courseB.id })
    })
    const itemOf = async (courseId: string) =>
      (
        await db()
          .selectFrom('order_items')
          .select('id')
          .where('order_id', '=', orderId)
          .where('course_id', '=', courseId)
          .executeTakeFirstOrThrow()
      ).id
    expect(items).toHaveLength(2)
    const itemA = await itemOf(courseA.id)

    expect(await revoke(db(), { orderItemIds: [itemA] }, 'refund')).toBe(1)
    expect(await revoke(db(), { orderItemIds: [itemA] }, 'refund')).toBe(0)
    expect(await ownedCourseIds(db(), user.id)).toEqual([courseB.id])

    expect(await revoke(db(), { orderId }, 'dispute')).toBe(1) // A is already revoked (for the refund)
    expect(await ownedCourseIds(db(), user.id)).toEqual([])
    expect(await canOpenCourse(db(), user, courseB.id)).toBe(false)

    // The dispute is won: what it took comes back, what the refund took does not.
    expect(await restore(db(), { orderId }, { reason: 'dispute' })).toBe(1)
    expect(await restore(db(), { orderId }, { reason: 'dispute' })).toBe(0)
    expect(await ownedCourseIds(db(), user.id)).toEqual([courseB.id])
    expect(await canOpenCourse(db(), user, courseB.id)).toBe(true)
    expect(await canOpenCourse(db(), user, courseA.id)).toBe(false)
    expect((await listOwnedCourses(db(), user.id)).map((c) => c.id)).toEqual([courseB.id])
    // Revoked or not, someone held the course: staff archive it rather than delete it.
    expect(await courseHasLearners(db(), courseA.id)).toBe(true)

    const [live] = await liveGrants(db(), user.id)
    expect(live).toMatchObject({ kind: 'course', courseId: courseB.id, source: 'order_item', orderId })
    expect(await revoke(db(), { grantId: live!.id }, 'cancellation')).toBe(1)
    expect(await liveGrants(db(), user.id)).toEqual([])
    expect(await revoke(db(), { orderItemIds: [] }, 'refund')).toBe(0)
  })

  it('by subscription: Premium ends when its grant is revoked or its end has passed', async () => {
    const { user } = await paidOrder((caller) =>
      caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' }),
    )
    const subscription = await db()
      .selectFrom('subscriptions')
      .select(['id', 'renews_at'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    // Paid for 30 days, then 3 days of grace.
    expect(await isPremium(db(), user, new Date(Date.now() + 32 * DAY))).toBe(true)
    expect(await isPremium(db(), user, new Date(Date.now() + 34 * DAY))).toBe(false)
    expect(await entitlementsOf(db(), user)).toMatchObject({
      isPremium: true,
      plan: { id: 'basic', billingCycle: 'monthly', status: 'active' },
      renewsAt: subscription.renews_at!.toISOString(),
    })

    expect(await revoke(db(), { subscriptionId: subscription.id }, 'lapse')).toBe(1)
    expect(await isPremium(db(), user)).toBe(false)
    expect(await entitlementsOf(db(), user)).toMatchObject({ isPremium: false, plan: null })
    expect(await restore(db(), { subscriptionId: subscription.id })).toBe(1)
    expect(await isPremium(db(), user)).toBe(true)
  })

  it('a staff Premium grant gives Premium without a plan', async () => {
    const user = await createUser(db())
    await grant(db(), { userId: user.id, right: { kind: 'premium' }, source: { kind: 'staff' } })
    expect(await entitlementsOf(db(), user)).toMatchObject({ isPremium: true, plan: null, renewsAt: null })
  })
})

describe('migration 2026_11_24_1000_access_ledger', () => {
  it('moves old enrolments, subscriptions and service orders into the ledger with the same answers', async () => {
    const buyer = await createUser(db())
    const manual = await createUser(db())
    const card = await createUser(db())
    const lapsed = await createUser(db())
    const course = await publishedCourse(db(), 4)
    const gift = await publishedCourse(db(), 5)
    const pkg = await servicePackage(db(), 'seo-audit', 'Essential Audit')
    const orderId = await placeOrder(db(), {
      userId: buyer.id,
      courseId: course.id,
      reference: 'SF-MIGRATE-1',
      status: 'paid',
    })
    await db()
      .insertInto('order_items')
      .values({
        order_id: orderId,
        kind: 'service_package',
        service_package_id: pkg.id,
        item_key: `service_package:${pkg.id}`,
        title: 'UK company formation',
        unit_price_minor: 9900,
      })
      .execute()

    await ledgerMigration.down(db())
    // biome-ignore lint/suspicious/noExplicitAny: the tables as they were before the migration
    const old = db() as unknown as Kysely<any>
    const enrolledAt = new Date('2026-10-01T10:00:00Z')
    await old
      .insertInto('enrolments')
      .values([
        { user_id: buyer.id, course_id: course.id, order_id: orderId, enrolled_at: enrolledAt },
        { user_id: buyer.id, course_id: gift.id, order_id: null, enrolled_at: enrolledAt },
      ])
      .execute()
    const future = new Date(Date.now() + 10 * DAY)
    await old
      .insertInto('subscriptions')
      .values([
        { user_id: manual.id, plan_id: 'basic', billing_cycle: 'monthly', status: 'active', renews_at: future },
        {
          user_id: card.id,
          plan_id: 'pro',
          billing_cycle: 'annual',
          status: 'trialing',
          stripe_subscription_id: 'sub_old_card',
          renews_at: new Date(Date.now() - 5 * DAY),
        },
        { user_id: lapsed.id, plan_id: 'pro', billing_cycle: 'monthly', status: 'cancelled', renews_at: future },
      ])
      .execute()
    await old
      .insertInto('service_orders')
      .values({ user_id: buyer.id, order_id: orderId, service_package_id: pkg.id, title: 'UK company formation' })
      .execute()
    await ledgerMigration.up(db())

    const tables = await sql<{ name: string }>`
      select table_name as name from information_schema.tables where table_name = 'enrolments'`.execute(db())
    expect(tables.rows).toEqual([])
    expect(await grantRows(buyer.id)).toEqual([
      { kind: 'course', course_id: expect.any(String), source: expect.any(String), revoked_reason: null },
      { kind: 'course', course_id: expect.any(String), source: expect.any(String), revoked_reason: null },
      { kind: 'service', course_id: null, source: 'order_item', revoked_reason: null },
    ])
    const courses = await listOwnedCourses(db(), buyer.id)
    expect(courses.map((c) => c.id).sort()).toEqual([course.id, gift.id].sort())
    expect(courses[0]!.enrolledAt).toBe(enrolledAt.toISOString())
    const fromOrder = await db()
      .selectFrom('access_grants')
      .select(['source', 'order_id'])
      .where('course_id', '=', course.id)
      .where('user_id', '=', buyer.id)
      .executeTakeFirstOrThrow()
    expect(fromOrder).toEqual({ source: 'order_item', order_id: orderId })
    expect(await canOpenCourse(db(), buyer, gift.id)).toBe(true) // no order: kept as a staff grant

    // A manual plan runs until renews_at; a Stripe one until Stripe says it ended; a cancelled one gave nothing.
    expect(await isPremium(db(), manual)).toBe(true)
    expect(await isPremium(db(), manual, new Date(future.getTime() + DAY))).toBe(false)
    expect(await isPremium(db(), card)).toBe(true)
    expect(await isPremium(db(), lapsed)).toBe(false)
    expect(await grantRows(lapsed.id)).toEqual([
      { kind: 'premium', course_id: null, source: 'subscription', revoked_reason: 'cancellation' },
    ])
  })
})

// Bundles (issue 32): who may bundle what at which price; one cart line that becomes one order line per course with
// its largest-remainder share of the bundle price, stored once and reused by access, the invoice, a refund of one
// course and the creator's earnings; the buyer is told which courses they already hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { allocate } from '../../../src-shared/money.ts'
import { BUNDLE_MESSAGES } from '../../../src-shared/schemas/bundles.ts'
import type { StudioCourseInput } from '../../../src-shared/schemas/studio.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { ownedCourse, type SoldCourse } from '../../support/earnings.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
let pro: TestUser
let basic: TestUser
let other: TestUser
let courses: SoldCourse[]
let othersCourse: SoldCourse
const db = () => shop.database.db
const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
  ;[pro, basic, other] = await Promise.all([
    createCreator(db(), { plan: 'pro' }),
    createCreator(db(), { plan: 'basic' }),
    createCreator(db(), { plan: 'pro' }),
  ])
  // 30.01 + 20.00 + 9.99 = 60.00 listed; a bundle at 40.00 splits with remainders to place.
  courses = [
    await ownedCourse(db(), pro.id, 3001, 'Bundle course A'),
    await ownedCourse(db(), pro.id, 2000, 'Bundle course B'),
    await ownedCourse(db(), pro.id, 999, 'Bundle course C'),
  ]
  othersCourse = await ownedCourse(db(), other.id, 1500, 'Another creator course')
})
afterAll(() => shop.close())

let slugs = 0
const draft = (courseIds: string[], price: string, extra: Record<string, unknown> = {}) => ({
  title: 'Full stack bundle',
  slug: `full-stack-${++slugs}`,
  description: 'Three courses, one price',
  courseIds,
  currency: 'USD' as const,
  price,
  published: true,
  ...extra,
})

async function message(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected a refusal')
}

describe('making bundles', () => {
  it('lets a Pro creator bundle their own published courses, and shows the saving', async () => {
    const caller = await shopCaller(db(), pro)
    const made = await caller.bundles.studio.create(
      draft(
        courses.map((c) => c.id),
        '40.00',
      ),
    )
    const [listed] = await caller.bundles.studio.list()
    expect(listed).toMatchObject({ id: made.id, price_minor: 4000, listTotalMinor: 6000, savingPercent: 33 })
    const page = await (await shopCaller(db(), null)).bundles.forCourse({ courseId: courses[1]!.id })
    expect(page.map((b) => b.id)).toContain(made.id)
  })

  it('refuses a Basic creator (Pro feature), another creator’s course, and an unpublished course', async () => {
    const own = courses.map((c) => c.id)
    expect(await message((await shopCaller(db(), basic)).bundles.studio.create(draft(own, '10.00')))).toBe(
      BUNDLE_MESSAGES.planNeeded,
    )
    const caller = await shopCaller(db(), pro)
    expect(await message(caller.bundles.studio.create(draft([own[0]!, othersCourse.id], '10.00')))).toBe(
      BUNDLE_MESSAGES.notYourCourse,
    )
    const hidden = await ownedCourse(db(), pro.id, 1000)
    await db().updateTable('courses').set({ status: 'unpublished' }).where('id', '=', hidden.id).execute()
    expect(await message(caller.bundles.studio.create(draft([own[0]!, hidden.id], '10.00')))).toBe(
      BUNDLE_MESSAGES.unpublished,
    )
    // Another creator cannot see or change the bundle: not found.
    const [mine] = await caller.bundles.studio.list()
    const stranger = await shopCaller(db(), other)
    expect(
      await message(
        stranger.bundles.studio.update({ ...draft([othersCourse.id, othersCourse.id], '1.00'), bundleId: mine!.id }),
      ),
    ).toBeTruthy()
    expect(await message(stranger.bundles.studio.remove({ bundleId: mine!.id }))).toBe(BUNDLE_MESSAGES.notFound)
    // Staff may bundle any creator's courses.
    const staff = await shopCaller(db(), admin)
    await expect(staff.bundles.admin.create(draft([own[0]!, othersCourse.id], '30.00'))).resolves.toHaveProperty('id')
  })

  it('refuses hostile prices, slugs and course lists, each with a clear message', async () => {
    const caller = await shopCaller(db(), pro)
    const own = courses.map((c) => c.id)
    for (const price of ['-5', '0', '0.00', '1e3', '10.001', 'NaN', '99999.99', ' ']) {
      expect(await message(caller.bundles.studio.create(draft(own, price)))).toMatch(/price/i)
    }
    expect(await message(caller.bundles.studio.create(draft(own, '12\u0000')))).toMatch(/NUL/)
    // Not cheaper than the courses bought one by one.
    expect(await message(caller.bundles.studio.create(draft(own, '60.00')))).toBe(BUNDLE_MESSAGES.notCheaper)
    expect(await message(caller.bundles.studio.create(draft(own, '75.00')))).toBe(BUNDLE_MESSAGES.notCheaper)
    expect(await message(caller.bundles.studio.create(draft(own, '10.00', { currency: 'GBP' })))).toBe(
      BUNDLE_MESSAGES.currency,
    )
    expect(await message(caller.bundles.studio.create(draft([own[0]!], '10.00')))).toMatch(/at least 2/)
    expect(await message(caller.bundles.studio.create(draft([own[0]!, own[0]!], '10.00')))).toMatch(/at least 2/)
    expect(await message(caller.bundles.studio.create(draft(own, '10.00', { slug: 'Bad Slug!' })))).toMatch(/lowercase/)
    expect(await message(caller.bundles.studio.create(draft(own, '10.00', { slug: 'x'.repeat(10_000) })))).toMatch(
      /lowercase/,
    )
    expect(await message(caller.bundles.studio.create(draft(own, '10.00', { slug: 'full-stack-1' })))).toBe(
      BUNDLE_MESSAGES.slugTaken,
    )
  })
})

describe('buying a bundle', () => {
  let bundleId: string
  beforeAll(async () => {
    const made = await (await shopCaller(db(), pro)).bundles.studio.create(
      draft(
        courses.map((c) => c.id),
        '40.00',
        { slug: 'bought-bundle' },
      ),
    )
    bundleId = made.id
  })

  async function buyByCard(buyer: TestUser) {
    const caller = await shopCaller(db(), buyer, payments)
    await caller.cart.add({ kind: 'bundle', bundleId })
    const cart = await caller.cart.list()
    expect(cart?.items).toHaveLength(1)
    expect(cart?.totals).toEqual([expect.objectContaining({ currency: 'USD', totalMinor: 4000 })])
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error(`expected a card checkout, got ${started.method}`)
    await fake.deliver('checkout.session.completed', fake.completeSession(sessionIdOf(started.url)))
    return { caller, orderId: started.orderId }
  }

  it('is one cart line that becomes one paid line per course, allocated by largest remainder and stored', async () => {
    const buyer = await createUser(db())
    const { caller, orderId } = await buyByCard(buyer)
    const lines = await db()
      .selectFrom('order_items')
      .select(['id', 'course_id', 'unit_price_minor', 'bundle_id', 'bundle_title', 'kind'])
      .where('order_id', '=', orderId)
      .execute()
    const expected = allocate(
      4000,
      courses.map((c) => c.price_minor),
    )
    expect(expected).toEqual([2001, 1333, 666])
    expect(Object.fromEntries(lines.map((l) => [l.course_id, l.unit_price_minor]))).toEqual(
      Object.fromEntries(courses.map((c, i) => [c.id, expected[i]])),
    )
    expect(lines.every((l) => l.kind === 'course' && l.bundle_id === bundleId)).toBe(true)
    expect((await caller.purchases.entitlements()).courseIds.sort()).toEqual(courses.map((c) => c.id).sort())
    expect(await caller.cart.list()).toMatchObject({ items: [] })
    // The creator's earnings are credited per line on the stored share.
    const shares = await db()
      .selectFrom('earning_shares')
      .select(['order_item_id', 'net_minor'])
      .where('order_id', '=', orderId)
      .execute()
    expect(shares.map((s) => s.net_minor).sort()).toEqual([...expected].sort())
    // The invoice sums the stored lines.
    const [order] = await caller.purchases.orders()
    expect(order).toMatchObject({ totalMinor: 4000, status: 'paid' })
    const invoice = await caller.purchases.document({ kind: 'invoice', id: order!.invoice!.id })
    expect(invoice.lines.map((line) => [line.title, line.amountMinor])).toEqual(
      expect.arrayContaining(courses.map((course, i) => [course.title, expected[i]])),
    )
    expect(invoice).toMatchObject({ totalMinor: 4000 })
  })

  it('refunds one course of the bundle by its stored share only, even after the bundle price changed', async () => {
    const buyer = await createUser(db())
    const { caller, orderId } = await buyByCard(buyer)
    // The creator changes the price afterwards: what was sold keeps its stored split.
    await (await shopCaller(db(), pro)).bundles.studio.update({
      ...draft(
        courses.map((c) => c.id),
        '45.00',
        { slug: 'bought-bundle' },
      ),
      bundleId,
    })
    const line = await db()
      .selectFrom('order_items')
      .select(['id', 'unit_price_minor'])
      .where('order_id', '=', orderId)
      .where('course_id', '=', courses[1]!.id)
      .executeTakeFirstOrThrow()
    expect(line.unit_price_minor).toBe(1333)
    const refund = await (await shopCaller(db(), admin, payments)).admin.orders.refund({
      orderId,
      lineIds: [line.id],
      reason: 'Did not want course B',
    })
    expect(refund).toMatchObject({ amountMinor: 1333, status: 'partially_refunded' })
    expect((await caller.purchases.entitlements()).courseIds.sort()).toEqual([courses[0]!.id, courses[2]!.id].sort())
    const reversed = await db()
      .selectFrom('ledger_transactions')
      .select('key')
      .where('kind', '=', 'refund')
      .where('key', 'like', `%${line.id}%`)
      .execute()
    expect(reversed.length).toBeGreaterThan(0)
    await (await shopCaller(db(), pro)).bundles.studio.update({
      ...draft(
        courses.map((c) => c.id),
        '40.00',
        { slug: 'bought-bundle' },
      ),
      bundleId,
    })
  })

  it('tells a buyer who holds some of the courses before paying, and refuses one who holds them all', async () => {
    const buyer = await createUser(db())
    const caller = await shopCaller(db(), buyer, payments)
    await caller.cart.add({ kind: 'course', courseId: courses[0]!.id })
    await caller.cart.add({ kind: 'bundle', bundleId })
    const cart = await caller.cart.list()
    const bundleLine = cart?.items.find((item) => item.kind === 'bundle')
    expect(bundleLine?.bundleOverlap).toEqual({ held: [], inCart: [courses[0]!.title] })

    const holder = await createUser(db())
    const { caller: holderCaller } = await buyByCard(holder)
    expect(await message(holderCaller.cart.add({ kind: 'bundle', bundleId }))).toBe(BUNDLE_MESSAGES.allOwned)
  })

  it('goes back into the cart as the one bundle line when the buyer cancels the PayPal order', async () => {
    const buyer = await createUser(db())
    const caller = await shopCaller(db(), buyer, payments)
    await caller.cart.add({ kind: 'bundle', bundleId })
    // PayPal empties the cart when the order is made; its cancel gives the lines back (a card or bank order's never
    // left the cart: decision 0145).
    const started = await caller.payments.start({ currency: 'USD', method: 'paypal' })
    expect((await caller.cart.list())?.items).toEqual([])
    await caller.payments.cancelOrder({ orderId: started.orderId })
    const cart = await caller.cart.list()
    expect(cart?.items.map((item) => [item.kind, item.bundleId])).toEqual([['bundle', bundleId]])
  })

  it('is not sold while unpublished or with a course no longer on sale', async () => {
    const anyone = await shopCaller(db(), null)
    expect((await anyone.bundles.bySlug({ slug: 'bought-bundle' }))?.id).toBe(bundleId)
    await db().updateTable('courses').set({ status: 'unpublished' }).where('id', '=', courses[2]!.id).execute()
    expect(await anyone.bundles.bySlug({ slug: 'bought-bundle' })).toBeNull()
    await db().updateTable('courses').set({ status: 'published' }).where('id', '=', courses[2]!.id).execute()
    expect(await anyone.bundles.bySlug({ slug: 'no-such-bundle' })).toBeNull()
  })

  it('refuses its creator a course price that would bring the courses’ total to a bundle’s price, saving nothing', async () => {
    const studio = await shopCaller(db(), pro)
    // B + C = 20.00 + 9.99 = 29.99 against 25.00.
    const { id: pairId } = await studio.bundles.studio.create(
      draft([courses[1]!.id, courses[2]!.id], '25.00', { title: 'Pair bundle', slug: 'pair-bundle' }),
    )
    const course = await studio.studio.course({ courseId: courses[1]!.id })
    const save = (priceUsd: string) =>
      studio.studio.updateCourse({
        courseId: course.id,
        title: course.title,
        subtitle: course.subtitle,
        categoryId: course.categoryId,
        level: course.level as StudioCourseInput['level'],
        language: course.language,
        description: course.description,
        whatYouWillLearn: course.whatYouWillLearn,
        requirements: course.requirements,
        imageUrl: course.imageUrl,
        priceUsd,
        priceGbp: '',
        certificate: course.certificate,
      })
    try {
      expect(await message(save('15.01'))).toBe(
        'Your bundle “Pair bundle” costs $25.00, and at this price its courses would come to $25.00: a bundle must cost less than its courses. Lower the bundle’s price first, in Bundles.',
      )
      expect((await studio.studio.course({ courseId: course.id })).pending).toEqual({})
      // A cent more leaves the bundle cheaper: the change waits for review as any other.
      expect((await save('15.02')).pending).toMatchObject({ priceUsdMinor: 1502 })
    } finally {
      await db().deleteFrom('course_drafts').where('course_id', '=', course.id).execute()
      await studio.bundles.studio.remove({ bundleId: pairId })
    }
  })

  it('is off sale once a course’s lowered price brings the courses’ total down to its price, until it is lowered', async () => {
    const anyone = await shopCaller(db(), null)
    const studio = await shopCaller(db(), pro)
    const row = async () => (await studio.bundles.studio.list()).find((bundle) => bundle.id === bundleId)
    const buyer = await shopCaller(db(), await createUser(db()), payments)
    await buyer.cart.add({ kind: 'bundle', bundleId })
    const setPrice = (priceMinor: number) =>
      db()
        .updateTable('courses')
        .set({ price_minor: priceMinor, price_usd_minor: priceMinor })
        .where('id', '=', courses[0]!.id)
        .execute()
    try {
      // 30.01 + 20.00 + 9.99 = 60.00 against 40.00; course A at 10.00 makes the courses 39.99, below the bundle.
      await setPrice(1000)
      expect(await anyone.bundles.bySlug({ slug: 'bought-bundle' })).toBeNull()
      expect(await anyone.bundles.forCourse({ courseId: courses[1]!.id })).toEqual([])
      expect(await row()).toMatchObject({
        published: true,
        onSale: false,
        offSaleReason:
          'its price ($40.00) is not below its courses’ total ($39.99) since a course’s price went down: lower it to sell the bundle again',
      })
      // The buyer's cart no longer offers it, so no checkout charges more than the courses on their own.
      expect((await buyer.cart.list())?.items ?? []).toEqual([])
      // At exactly the courses' total it saves nothing: still off sale.
      await setPrice(1001)
      expect((await row())?.onSale).toBe(false)

      const bundle = await row()
      await studio.bundles.studio.update({
        ...draft(
          courses.map((c) => c.id),
          '35.00',
          { slug: 'bought-bundle' },
        ),
        title: bundle!.title,
        description: bundle!.description,
        bundleId,
      })
      expect(await row()).toMatchObject({ onSale: true, offSaleReason: null, listTotalMinor: 4000 })
      expect((await anyone.bundles.bySlug({ slug: 'bought-bundle' }))?.price_minor).toBe(3500)
      expect((await buyer.cart.list())?.totals).toEqual([
        expect.objectContaining({ currency: 'USD', totalMinor: 3500 }),
      ])
    } finally {
      await setPrice(3001)
    }
  })
})

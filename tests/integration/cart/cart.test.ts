// Cart router against a real database: ids only, prices from the catalogue, duplicates impossible.
import { randomBytes, randomUUID } from 'node:crypto'
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertCourse, type NewCourse } from '../../../db/seed/factories.ts'
import type { PaypalOptions } from '../../../db/types.ts'
import { grant } from '../../../src-server/access/ledger.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { raceIt, whileRowHeld } from '../../support/race.ts'
import { publishedCourse, servicePackage, shopCaller, sterlingPlan } from '../../support/shop.ts'

let database: DatabaseHandle

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

const cartRows = (userId: string) =>
  database.db.selectFrom('cart_items').select(['id', 'item_key']).where('user_id', '=', userId).execute()

/** A published course of this test's own (a fresh id), so its catalogue row says what the test needs. */
async function ownCourse(course: Partial<NewCourse> = {}) {
  const category = await database.db.selectFrom('categories').select('id').limit(1).executeTakeFirstOrThrow()
  const id = `cart-course-${randomBytes(4).toString('hex')}`
  return insertCourse(database.db, {
    id,
    title: `Course ${id}`,
    category_id: category.id,
    status: 'published',
    ...course,
  })
}

describe('cart', () => {
  it('refuses a visitor with the spec message, and lists null / counts 0 for a visitor', async () => {
    const visitor = await shopCaller(database.db, null)
    const course = await publishedCourse(database.db)
    await expect(visitor.cart.add({ kind: 'course', courseId: course.id })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Please log in to add items to cart',
    })
    expect(await visitor.cart.list()).toBeNull()
    expect(await visitor.cart.count()).toBe(0)
  })

  // Decided by a unique key, which PGlite enforces too: this runs on both databases.
  it('keeps one row when the same item is added 20 times at once', async () => {
    const user = await createUser(database.db)
    const caller = await shopCaller(database.db, user)
    const course = await publishedCourse(database.db)
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => caller.cart.add({ kind: 'course', courseId: course.id })),
    )
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const refusals = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    expect(refusals).toHaveLength(19)
    for (const refusal of refusals) {
      expect(refusal.reason).toBeInstanceOf(TRPCError)
      expect(refusal.reason.message).toBe('This item is already in your cart')
    }
    expect(await cartRows(user.id)).toHaveLength(1)
    expect(await caller.cart.count()).toBe(1)
  })

  it('refuses an input carrying a price and stores nothing; the list price is the catalogue price', async () => {
    const user = await createUser(database.db)
    const caller = await shopCaller(database.db, user)
    const course = await publishedCourse(database.db, 1)
    const tampered = { kind: 'course', courseId: course.id, price: 1, priceMinor: 1 } as never
    await expect(caller.cart.add(tampered)).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    expect(await cartRows(user.id)).toHaveLength(0)

    await caller.cart.add({ kind: 'course', courseId: course.id })
    const cart = await caller.cart.list()
    expect(cart?.items[0]).toMatchObject({ courseId: course.id, priceMinor: course.price_minor, currency: 'USD' })
  })

  it('computes totals per currency on the server: GBP packages are not summed with USD items', async () => {
    const user = await createUser(database.db)
    const caller = await shopCaller(database.db, user)
    // Its own dollar course: publishedCourse's offset could land on another test's course (a pound one included).
    const course = await ownCourse({ price_minor: 4_999 })
    const uk = await servicePackage(database.db, 'uk-company-formation', 'Standard')
    const audit = await servicePackage(database.db, 'seo-audit', 'Essential Audit')
    await caller.cart.add({ kind: 'course', courseId: course.id })
    await caller.cart.add({ kind: 'service_package', packageId: uk.id })
    await caller.cart.add({ kind: 'service_package', packageId: audit.id })
    const added = await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' })
    expect(added).toEqual({ kind: 'plan', title: 'Pro', replaced: null })

    const cart = await caller.cart.list()
    expect(cart?.count).toBe(4)
    const usd = 4_999 + audit.price_minor + 19_999
    expect(cart?.totals).toEqual([
      {
        currency: 'USD',
        itemCount: 3,
        subtotalMinor: usd,
        taxMinor: 0,
        discountMinor: 0,
        totalMinor: usd,
        // Never a member: a card checkout of the dollar group starts the plan's free trial (its price deferred).
        planTrial: { planTitle: 'Pro Plan', planPriceMinor: 19_999, startsWithTrial: true },
      },
      {
        currency: 'GBP',
        itemCount: 1,
        subtotalMinor: 30_000,
        taxMinor: 0,
        discountMinor: 0,
        totalMinor: 30_000,
        planTrial: null,
      },
    ])
    const plan = cart?.items.find((item) => item.kind === 'plan')
    expect(plan).toMatchObject({ priceMinor: 19_999, recurringInterval: 'year', billingCycle: 'annual' })
  })

  it('holds one plan: another plan or cycle replaces it and says so; the same one is a duplicate', async () => {
    const user = await createUser(database.db)
    const caller = await shopCaller(database.db, user)
    expect(await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })).toEqual({
      kind: 'plan',
      title: 'Basic',
      replaced: null,
    })
    await expect(caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This item is already in your cart',
    })
    expect(await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' })).toMatchObject({
      replaced: 'Pro (annual) replaced Basic (monthly) in your cart',
    })
    expect(await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })).toMatchObject({
      replaced: 'Pro (monthly) replaced Pro (annual) in your cart',
    })
    const plans = await database.db
      .selectFrom('cart_items')
      .select(['plan_id', 'billing_cycle'])
      .where('user_id', '=', user.id)
      .where('kind', '=', 'plan')
      .execute()
    expect(plans).toEqual([{ plan_id: 'pro', billing_cycle: 'monthly' }])
    // Even straight into the table, a second plan line is refused (the unique index), so no client can get round it.
    await expect(
      database.db
        .insertInto('cart_items')
        .values({ user_id: user.id, kind: 'plan', plan_id: 'basic', billing_cycle: 'annual' })
        .execute(),
    ).rejects.toThrow('duplicate key value violates unique constraint "cart_items_one_plan_per_user"')
  })

  // Two other plans added at once (two tabs): both are answered as a replacement, in turn, and one plan line stays.
  // The plan line's row is held while both start, so both have read it before either can change it.
  raceIt('two other plans added at once replace the plan line in turn: both succeed, one line stays', async () => {
    const user = await createUser(database.db)
    const caller = await shopCaller(database.db, user)
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    const [line] = await cartRows(user.id)
    const results = await whileRowHeld(
      database.db,
      'cart_items',
      line!.id,
      () =>
        Promise.allSettled([
          caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' }),
          caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' }),
        ]),
      { waiters: 2 },
    )
    const answers = results.map((result) =>
      result.status === 'fulfilled' ? result.value.replaced : `refused: ${(result.reason as Error).message}`,
    )
    const annualFirst = [
      'Pro (annual) replaced Basic (monthly) in your cart',
      'Pro (monthly) replaced Pro (annual) in your cart',
    ]
    const monthlyFirst = [
      'Pro (annual) replaced Pro (monthly) in your cart',
      'Pro (monthly) replaced Basic (monthly) in your cart',
    ]
    expect(answers.filter((answer) => answer?.startsWith('refused'))).toEqual([])
    expect([annualFirst, monthlyFirst]).toContainEqual(answers)
    const plans = await database.db
      .selectFrom('cart_items')
      .select(['plan_id', 'billing_cycle'])
      .where('user_id', '=', user.id)
      .where('kind', '=', 'plan')
      .execute()
    // The later one stands.
    expect(plans).toEqual([{ plan_id: 'pro', billing_cycle: answers[0] === annualFirst[0] ? 'monthly' : 'annual' }])
  })

  it('refuses unknown items, duplicates, an owned course and a second plan, with the exact reasons', async () => {
    const user = await createUser(database.db)
    const caller = await shopCaller(database.db, user)
    await expect(caller.cart.add({ kind: 'course', courseId: 'no-such-course' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Course not found',
    })
    await expect(caller.cart.add({ kind: 'service_package', packageId: randomUUID() })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Service package not found',
    })
    await expect(caller.cart.add({ kind: 'plan', planId: 'gold', billingCycle: 'monthly' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Plan not found',
    })

    const course = await ownCourse()
    const audit = await servicePackage(database.db, 'seo-audit', 'Essential Audit')
    await caller.cart.add({ kind: 'course', courseId: course.id })
    await caller.cart.add({ kind: 'service_package', packageId: audit.id })
    const duplicate = { code: 'CONFLICT', message: 'This item is already in your cart' }
    await expect(caller.cart.add({ kind: 'course', courseId: course.id })).rejects.toMatchObject(duplicate)
    await expect(caller.cart.add({ kind: 'service_package', packageId: audit.id })).rejects.toMatchObject(duplicate)

    // A course the buyer already holds cannot be bought again.
    const owned = await ownCourse()
    await grant(database.db, {
      userId: user.id,
      right: { kind: 'course', courseId: owned.id },
      source: { kind: 'staff' },
    })
    await expect(caller.cart.add({ kind: 'course', courseId: owned.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'You already own this course',
    })

    // A buyer with a live plan changes it on the pricing page: no plan goes into the cart.
    await database.db
      .insertInto('subscriptions')
      .values({ user_id: user.id, plan_id: 'basic', billing_cycle: 'monthly', status: 'active' })
      .execute()
    await expect(caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'You already have a plan. Use Change plan on the pricing page to switch.',
    })
    expect((await cartRows(user.id)).map((row) => row.item_key).sort()).toEqual(
      [`course:${course.id}`, `service_package:${audit.id}`].sort(),
    )
  })

  it('does not call a failure that is not a duplicate a duplicate (an account deleted while adding)', async () => {
    const user = await createUser(database.db)
    const caller = await shopCaller(database.db, user)
    const course = await ownCourse()
    await database.db.deleteFrom('users').where('id', '=', user.id).execute()
    await expect(caller.cart.add({ kind: 'course', courseId: course.id })).rejects.toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'insert or update on table "cart_items" violates foreign key constraint "cart_items_user_id_fkey"',
    })
    await expect(caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })).rejects.toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'insert or update on table "cart_items" violates foreign key constraint "cart_items_user_id_fkey"',
    })
    expect(await cartRows(user.id)).toEqual([])
  })

  it('removes only the own item and clears the cart', async () => {
    const user = await createUser(database.db)
    const other = await createUser(database.db)
    const caller = await shopCaller(database.db, user)
    const otherCaller = await shopCaller(database.db, other)
    await caller.cart.add({ kind: 'course', courseId: (await publishedCourse(database.db, 3)).id })
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    const first = (await cartRows(user.id))[0]!
    await expect(otherCaller.cart.remove({ itemId: first.id })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await caller.cart.remove({ itemId: first.id })).toEqual({ removed: true, droppedCode: null })
    expect(await cartRows(user.id)).toHaveLength(1)
    expect(await caller.cart.clear()).toEqual({ removed: 1 })
    expect(await caller.cart.list()).toEqual({ items: [], totals: [], count: 0, coupon: null })
  })

  it('names the cheapest package of each service (what a service card adds)', async () => {
    const cheapest = await (await shopCaller(database.db, null)).cart.cheapestPackages()
    expect(cheapest['uk-company-formation']).toBe(
      (await servicePackage(database.db, 'uk-company-formation', 'Standard')).id,
    )
    expect(cheapest['seo-audit']).toBe((await servicePackage(database.db, 'seo-audit', 'Essential Audit')).id)
  })

  it('leaves a course that is no longer published out of the list, the count and the totals', async () => {
    const user = await createUser(database.db)
    const caller = await shopCaller(database.db, user)
    const course = await publishedCourse(database.db, 4)
    await caller.cart.add({ kind: 'course', courseId: course.id })
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    await database.db.updateTable('courses').set({ status: 'archived' }).where('id', '=', course.id).execute()
    expect(await caller.cart.count()).toBe(1)
    const cart = await caller.cart.list()
    expect(cart?.items.map((item) => item.key)).toEqual(['plan:basic'])
    expect(cart?.totals[0]?.totalMinor).toBe(999)
    await database.db.updateTable('courses').set({ status: 'published' }).where('id', '=', course.id).execute()
  })
  it('resolves every line from the catalogue: title, detail, image, price, currency and how often it bills', async () => {
    const user = await createUser(database.db)
    const caller = await shopCaller(database.db, user)
    const pounds = await ownCourse({
      instructor_name: 'Ada Lovelace',
      image_url: '/images/ada.png',
      price_minor: 4_250,
      currency: 'GBP',
    })
    const dollars = await ownCourse({
      instructor_name: 'Grace Hopper',
      image_url: '/images/grace.png',
      price_minor: 1_999,
    })
    const formation = await servicePackage(database.db, 'uk-company-formation', 'Standard')
    const seo = await servicePackage(database.db, 'seo-management', 'Starter SEO Monthly')
    const planId = await sterlingPlan(database.db)

    expect(await caller.cart.add({ kind: 'course', courseId: pounds.id })).toEqual({
      kind: 'course',
      title: pounds.title,
      replaced: null,
    })
    await caller.cart.add({ kind: 'course', courseId: dollars.id })
    expect(await caller.cart.add({ kind: 'service_package', packageId: formation.id })).toEqual({
      kind: 'service_package',
      title: 'UK Company Formation - Standard',
      replaced: null,
    })
    await caller.cart.add({ kind: 'service_package', packageId: seo.id })
    await caller.cart.add({ kind: 'plan', planId, billingCycle: 'monthly' })

    const rows = await database.db
      .selectFrom('cart_items')
      .select(['id', 'item_key', 'added_at'])
      .where('user_id', '=', user.id)
      .execute()
    const stored = (key: string) => {
      const row = rows.find((r) => r.item_key === key)!
      return { id: row.id, key, addedAt: row.added_at.toISOString() }
    }
    const none = {
      courseId: null,
      serviceId: null,
      packageId: null,
      planId: null,
      billingCycle: null,
      discountMinor: 0,
      // No school sells these (the marketplace's own courses, services and plans).
      school: null,
    }
    const cart = await caller.cart.list()
    const byKey = (key: string) => cart?.items.find((item) => item.key === key)
    expect(byKey(`course:${pounds.id}`)).toEqual({
      ...none,
      ...stored(`course:${pounds.id}`),
      kind: 'course',
      courseId: pounds.id,
      title: pounds.title,
      detail: 'Ada Lovelace',
      image: '/images/ada.png',
      priceMinor: 4_250,
      currency: 'GBP',
      recurringInterval: null,
    })
    expect(byKey(`course:${dollars.id}`)).toEqual({
      ...none,
      ...stored(`course:${dollars.id}`),
      kind: 'course',
      courseId: dollars.id,
      title: dollars.title,
      detail: 'Grace Hopper',
      image: '/images/grace.png',
      priceMinor: 1_999,
      currency: 'USD',
      recurringInterval: null,
    })
    expect(byKey(`service_package:${formation.id}`)).toEqual({
      ...none,
      ...stored(`service_package:${formation.id}`),
      kind: 'service_package',
      serviceId: 'uk-company-formation',
      packageId: formation.id,
      title: 'UK Company Formation - Standard',
      detail: 'Standard package',
      image: '/images/services/uk-company-formation.svg',
      priceMinor: 30_000,
      currency: 'GBP',
      recurringInterval: null,
    })
    expect(byKey(`service_package:${seo.id}`)).toEqual({
      ...none,
      ...stored(`service_package:${seo.id}`),
      kind: 'service_package',
      serviceId: 'seo-management',
      packageId: seo.id,
      title: 'SEO Management - Starter SEO Monthly',
      detail: 'Starter SEO Monthly package, billed monthly',
      image: '/images/services/seo-management.svg',
      priceMinor: 49_900,
      currency: 'USD',
      recurringInterval: 'month',
    })
    expect(byKey(`plan:${planId}`)).toEqual({
      ...none,
      ...stored(`plan:${planId}`),
      kind: 'plan',
      planId,
      billingCycle: 'monthly',
      title: 'Sterling Plan',
      detail: 'Billed monthly',
      image: '/favicon.svg',
      priceMinor: 1_500,
      currency: 'GBP',
      recurringInterval: 'month',
    })
    expect(cart?.count).toBe(5)
    const usdGroup = { currency: 'USD', itemCount: 2, subtotalMinor: 51_899, taxMinor: 0, discountMinor: 0 }
    expect(cart?.totals).toEqual([
      { ...usdGroup, totalMinor: 51_899, planTrial: null },
      {
        currency: 'GBP',
        itemCount: 3,
        subtotalMinor: 35_750,
        taxMinor: 0,
        discountMinor: 0,
        totalMinor: 35_750,
        planTrial: { planTitle: 'Sterling Plan', planPriceMinor: 1_500, startsWithTrial: true },
      },
    ])

    // The same plan billed yearly: its yearly price, billed every year.
    await caller.cart.add({ kind: 'plan', planId, billingCycle: 'annual' })
    const yearly = await caller.cart.list()
    expect(yearly?.items.find((item) => item.kind === 'plan')).toMatchObject({
      key: `plan:${planId}`,
      title: 'Sterling Plan',
      detail: 'Billed annually',
      priceMinor: 15_000,
      currency: 'GBP',
      recurringInterval: 'year',
      billingCycle: 'annual',
    })
    expect(yearly?.totals).toEqual([
      { ...usdGroup, totalMinor: 51_899, planTrial: null },
      {
        currency: 'GBP',
        itemCount: 3,
        subtotalMinor: 49_250,
        taxMinor: 0,
        discountMinor: 0,
        totalMinor: 49_250,
        planTrial: { planTitle: 'Sterling Plan', planPriceMinor: 15_000, startsWithTrial: true },
      },
    ])
  })

  it('offers the PayPal buttons of the services in the cart that have PayPal on and fully set up, once each', async () => {
    const paypalOf = async (serviceId: string) =>
      (await database.db.selectFrom('services').select('paypal').where('id', '=', serviceId).executeTakeFirstOrThrow())
        .paypal
    const setPaypal = (serviceId: string, paypal: PaypalOptions | null) =>
      database.db
        .updateTable('services')
        .set({ paypal: JSON.stringify(paypal) })
        .where('id', '=', serviceId)
        .execute()
    const services = ['seo-audit', 'uk-company-formation', 'seo-management', 'usa-company-formation'] as const
    const before = await Promise.all(services.map(paypalOf))
    try {
      await setPaypal('seo-audit', { enabled: true, clientId: 'client-audit', hostedButtonId: 'BUTTON-AUDIT' })
      // On, but without its button: nothing to show.
      await setPaypal('uk-company-formation', { enabled: true, clientId: 'client-uk', hostedButtonId: '' })
      // Set up, but off.
      await setPaypal('seo-management', { enabled: false, clientId: 'client-seo', hostedButtonId: 'BUTTON-SEO' })
      // On and set up, but not in this buyer's cart.
      await setPaypal('usa-company-formation', { enabled: true, clientId: 'client-us', hostedButtonId: 'BUTTON-US' })

      const user = await createUser(database.db)
      const caller = await shopCaller(database.db, user)
      expect((await caller.payments.options()).paypalButtons).toEqual([])
      for (const [serviceId, name] of [
        ['seo-audit', 'Essential Audit'],
        ['seo-audit', 'Professional Audit'],
        ['uk-company-formation', 'Standard'],
        ['seo-management', 'Starter SEO Monthly'],
      ] as const) {
        await caller.cart.add({
          kind: 'service_package',
          packageId: (await servicePackage(database.db, serviceId, name)).id,
        })
      }
      const other = await createUser(database.db)
      const us = await database.db
        .selectFrom('service_packages')
        .select('id')
        .where('service_id', '=', 'usa-company-formation')
        .executeTakeFirstOrThrow()
      await (await shopCaller(database.db, other)).cart.add({ kind: 'service_package', packageId: us.id })

      expect(await caller.payments.options()).toEqual({
        card: false,
        paypal: false,
        paypalButtons: [
          { serviceId: 'seo-audit', title: 'SEO Audit', clientId: 'client-audit', hostedButtonId: 'BUTTON-AUDIT' },
        ],
      })
    } finally {
      for (const [index, serviceId] of services.entries()) await setPaypal(serviceId, before[index] ?? null)
    }
  })
})

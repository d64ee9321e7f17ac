// Cart router against a real database: ids only, prices from the catalogue, duplicates impossible.
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../src-server/db.ts'
import { createTestDatabase } from '../support/db.ts'
import { createUser } from '../support/factories.ts'
import { raceIt, whileRowHeld } from '../support/race.ts'
import { publishedCourse, servicePackage, shopCaller } from '../support/shop.ts'

let database: DatabaseHandle

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

const cartRows = (userId: string) =>
  database.db.selectFrom('cart_items').select(['id', 'item_key']).where('user_id', '=', userId).execute()

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
    const course = await publishedCourse(database.db, 2)
    const uk = await servicePackage(database.db, 'uk-company-formation', 'Standard')
    const audit = await servicePackage(database.db, 'seo-audit', 'Essential Audit')
    await caller.cart.add({ kind: 'course', courseId: course.id })
    await caller.cart.add({ kind: 'service_package', packageId: uk.id })
    await caller.cart.add({ kind: 'service_package', packageId: audit.id })
    const added = await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' })
    expect(added).toEqual({ kind: 'plan', title: 'Pro', replaced: null })

    const cart = await caller.cart.list()
    expect(cart?.count).toBe(4)
    const usd = course.price_minor + audit.price_minor + 19_999
    expect(cart?.totals).toEqual([
      { currency: 'USD', itemCount: 3, subtotalMinor: usd, taxMinor: 0, totalMinor: usd },
      { currency: 'GBP', itemCount: 1, subtotalMinor: 30_000, taxMinor: 0, totalMinor: 30_000 },
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

  it('refuses unknown items', async () => {
    const user = await createUser(database.db)
    const caller = await shopCaller(database.db, user)
    await expect(caller.cart.add({ kind: 'course', courseId: 'no-such-course' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(caller.cart.add({ kind: 'plan', planId: 'gold', billingCycle: 'monthly' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
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
    expect(await caller.cart.remove({ itemId: first.id })).toEqual({ removed: true })
    expect(await cartRows(user.id)).toHaveLength(1)
    expect(await caller.cart.clear()).toEqual({ removed: 1 })
    expect(await caller.cart.list()).toEqual({ items: [], totals: [], count: 0 })
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
})

// A bundle's price is split over its courses by their prices in the bundle's own currency. A course sold in both
// currencies may list its GBP price (the catalogue's list price follows the currency it was first sold in): inside a
// USD bundle it weighs its USD price. Before the fix the split weighed each course's list price whatever its currency,
// so a $100 course listed at £40 took 4/14 of a $150 bundle instead of half, and its creator was credited that. A
// course no longer sold in the bundle's currency takes the bundle off sale (it has no price to weigh there), and out
// of a cart that holds it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { ownedCourse } from '../../support/earnings.ts'
import { createUser } from '../../support/factories.ts'
import { shopCaller } from '../../support/shop.ts'

let database: TestDatabase
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

let slugs = 0
/** A Pro creator's USD bundle at $150 of two of their $100 courses. */
async function bundleOfTwo() {
  const creator = await createCreator(db(), { plan: 'pro' })
  const first = await ownedCourse(db(), creator.id, 10_000, 'First')
  const second = await ownedCourse(db(), creator.id, 10_000, 'Second')
  const caller = await shopCaller(db(), creator)
  const { id } = await caller.bundles.studio.create({
    title: 'Two courses',
    slug: `two-courses-${++slugs}`,
    description: '',
    courseIds: [first.id, second.id],
    currency: 'USD',
    price: '150.00',
    published: true,
  })
  return { bundleId: id, first, second, creator }
}

/** The course's prices as the studio stores them (decision 0069): per currency, and the list price. */
function setPrices(courseId: string, usd: number | null, gbp: number | null, list: 'USD' | 'GBP') {
  return db()
    .updateTable('courses')
    .set({
      price_usd_minor: usd,
      price_gbp_minor: gbp,
      price_minor: (list === 'USD' ? usd : gbp) ?? 0,
      currency: list,
    })
    .where('id', '=', courseId)
    .execute()
}

describe('a bundle’s split over its courses', () => {
  it('weighs each course by its price in the bundle’s currency, not its list price', async () => {
    const { bundleId, first, second } = await bundleOfTwo()
    // Still sold at $100, and at £40, with the list price now in GBP.
    await setPrices(second.id, 10_000, 4000, 'GBP')

    const buyer = await createUser(db())
    const caller = await shopCaller(db(), buyer)
    await caller.cart.add({ kind: 'bundle', bundleId })
    const order = await createFromCart(db(), {
      userId: buyer.id,
      currency: 'USD',
      method: 'bank_transfer',
      referencePrefix: 'SF',
    })
    expect(await markPaid(db(), order.id, { source: 'staff' })).toBe('fulfilled')
    const lines = await db()
      .selectFrom('order_items')
      .select(['course_id', 'unit_price_minor'])
      .where('order_id', '=', order.id)
      .execute()
    expect(Object.fromEntries(lines.map((line) => [line.course_id, line.unit_price_minor]))).toEqual({
      [first.id]: 7500,
      [second.id]: 7500,
    })
    const [page] = await (await shopCaller(db(), null)).bundles.forCourse({ courseId: first.id })
    expect(page).toMatchObject({ id: bundleId, savingPercent: 25 })
  })

  it('is off sale while one of its courses is not sold in the bundle’s currency', async () => {
    const { bundleId, first, second } = await bundleOfTwo()
    await setPrices(second.id, null, 4000, 'GBP')
    const visitor = await shopCaller(db(), null)
    expect((await visitor.bundles.forCourse({ courseId: first.id })).map((bundle) => bundle.id)).not.toContain(bundleId)
    // Already in a cart, it is left out of it like a bundle with a course no longer on sale.
    const caller = await shopCaller(db(), await createUser(db()))
    await caller.cart.add({ kind: 'bundle', bundleId })
    expect((await caller.cart.list())?.items ?? []).toEqual([])
  })

  it('tells its creator in the studio why it is off sale, with no courses’ total to compare (stop 84)', async () => {
    const { bundleId, first, second, creator } = await bundleOfTwo()
    const studio = await shopCaller(db(), creator)
    const row = async () => (await studio.bundles.studio.list()).find((bundle) => bundle.id === bundleId)
    expect(await row()).toMatchObject({ onSale: true, offSaleReason: null, listTotalMinor: 20_000, savingPercent: 25 })

    await setPrices(second.id, null, 4000, 'GBP')
    expect(await row()).toMatchObject({
      published: true,
      onSale: false,
      offSaleReason: '“Second” is not sold in USD, and every course must be sold in the bundle’s currency',
    })
    await db().updateTable('courses').set({ status: 'unpublished' }).where('id', '=', first.id).execute()
    expect((await row())?.offSaleReason).toBe('“First” is not published, and every course must be on sale')
  })
})

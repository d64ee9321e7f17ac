// Only a bundle nobody has bought can be deleted: a sold bundle holds its buyers' course lines together, and a refund
// of one of them is a refund of the bundle (decision 0149). Deleting it would untie the lines (their bundle_id set
// null) and let each course be refunded alone at its share. The lists say which bundles were bought; a deletion racing
// a checkout that places the bundle waits for it and refuses (raced on PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUNDLE_MESSAGES } from '../../../src-shared/schemas/bundles.ts'
import { seedBundle } from '../../support/bundles.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { ownedCourse, type SoldCourse } from '../../support/earnings.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { raceIt, whileHeld } from '../../support/race.ts'
import { shopCaller } from '../../support/shop.ts'

let database: TestDatabase
let creator: TestUser
let admin: TestUser
let courses: SoldCourse[]
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
  creator = await createCreator(db(), { plan: 'pro' })
  admin = await createUser(db(), { role: 'admin' })
  courses = [
    await ownedCourse(db(), creator.id, 3000, 'Deletion course A'),
    await ownedCourse(db(), creator.id, 2000, 'Deletion course B'),
  ]
})
afterAll(() => database.close())

const bundleOf = () =>
  seedBundle(db(), { courseIds: courses.map((course) => course.id), priceMinor: 4000, ownerId: creator.id })

/** An order holding the bundle's two courses at their shares, written as checkout writes it. */
async function orderWith(bundle: { id: string }, into = db()) {
  const buyer = await createUser(into)
  return placeOrder(into, {
    userId: buyer.id,
    reference: `SF-DEL-${bundle.id.slice(0, 8)}`,
    bundle: { id: bundle.id, title: 'Deletion bundle' },
    courses: [
      { id: courses[0]!.id, title: 'Deletion course A', price_minor: 2400 },
      { id: courses[1]!.id, title: 'Deletion course B', price_minor: 1600 },
    ],
  })
}

const linesOf = (orderId: string) =>
  db().selectFrom('order_items').select('bundle_id').where('order_id', '=', orderId).execute()
const exists = async (bundleId: string) =>
  (await db().selectFrom('bundles').select('id').where('id', '=', bundleId).executeTakeFirst()) !== undefined

describe('deleting a bundle', () => {
  it('deletes one nobody bought, and refuses a bought one for its creator and staff alike, lines kept', async () => {
    const studio = (await shopCaller(db(), creator)).bundles.studio
    const unsold = await bundleOf()
    const sold = await bundleOf()
    const orderId = await orderWith(sold)
    const listed = await studio.list()
    expect(listed.find((bundle) => bundle.id === sold.id)?.sold).toBe(true)
    expect(listed.find((bundle) => bundle.id === unsold.id)?.sold).toBe(false)

    await expect(studio.remove({ bundleId: unsold.id })).resolves.toEqual({ id: unsold.id })
    expect(await exists(unsold.id)).toBe(false)

    await expect(studio.remove({ bundleId: sold.id })).rejects.toThrow(BUNDLE_MESSAGES.sold)
    await expect((await shopCaller(db(), admin)).bundles.admin.remove({ bundleId: sold.id })).rejects.toThrow(
      BUNDLE_MESSAGES.sold,
    )
    expect(await exists(sold.id)).toBe(true)
    expect(await linesOf(orderId)).toEqual([{ bundle_id: sold.id }, { bundle_id: sold.id }])
    // Unpublishing is what takes it off sale.
    await db().updateTable('bundles').set({ published: false }).where('id', '=', sold.id).execute()
    expect((await (await shopCaller(db(), null)).bundles.published()).map((bundle) => bundle.id)).not.toContain(sold.id)
  })

  raceIt('refuses when a checkout places the bundle while the deletion runs', async () => {
    const bundle = await bundleOf()
    const studio = (await shopCaller(db(), creator)).bundles.studio
    let orderId = ''
    // The order is written and not yet committed when the deletion starts: the deletion waits for it, then sees it.
    const outcome = await whileHeld(
      db(),
      async (trx) => {
        orderId = await orderWith(bundle, trx)
      },
      () =>
        studio.remove({ bundleId: bundle.id }).then(
          () => 'deleted',
          (error: Error) => error.message,
        ),
      { waiters: 1 },
    )
    expect(outcome).toBe(BUNDLE_MESSAGES.sold)
    expect(await exists(bundle.id)).toBe(true)
    expect(await linesOf(orderId)).toEqual([{ bundle_id: bundle.id }, { bundle_id: bundle.id }])
  })
})

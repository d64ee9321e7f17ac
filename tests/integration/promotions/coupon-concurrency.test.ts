// A coupon's limits under simultaneous checkouts (PostgreSQL only, see tests/support/race.ts): 50 checkouts of a code
// limited to 10 give exactly 10 orders carrying it and 40 clear refusals; one customer (one mailbox, several
// accounts) limited to 1 use gets 1. The coupon's row is held while the racers start, so all of them reach the
// reservation before any commits. docs/concurrency-proofs.md records both failing without reserveUse's row lock.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { COUPON_REFUSALS } from '../../../src-shared/promotions.ts'
import { createTestDatabase } from '../../support/db.ts'
import { ownedCourse } from '../../support/earnings.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { raceIt, whileHeld } from '../../support/race.ts'
import { shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

async function couponFor(code: string, limits: { maxUses?: number; maxUsesPerCustomer?: number }) {
  const editor = await callerAs(db(), await createUser(db(), { role: 'editor' }))
  return editor.admin.coupons.create({
    code,
    kind: 'percent',
    percentOff: 20,
    appliesTo: 'everything',
    ...limits,
  } as never)
}

/** A buyer with the course in the cart and the code applied (nobody has used it yet, so it applies). */
async function readyBuyer(courseId: string, code: string, email?: string) {
  const user = await createUser(db(), email ? { email } : {})
  const caller = await shopCaller(db(), user)
  await caller.cart.add({ kind: 'course', courseId })
  await caller.cart.applyCoupon({ code })
  return user
}

/** Every checkout at once while the coupon's row is held; each settles to 'order' or the refusal's message. */
async function checkoutsAtOnce(couponId: string, userIds: string[]) {
  return whileHeld(
    db(),
    (trx) => sql`select 1 from coupons where id = ${couponId} for update`.execute(trx),
    () =>
      Promise.all(
        userIds.map((userId) =>
          createFromCart(db(), { userId, currency: 'USD', method: 'bank_transfer', referencePrefix: 'RACE' }).then(
            () => 'order',
            (error: Error) => error.message,
          ),
        ),
      ),
    { waiters: 4, maxMs: 10_000 },
  )
}

const carrying = async (couponId: string) =>
  Number(
    (
      await db()
        .selectFrom('coupon_redemptions')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('coupon_id', '=', couponId)
        .executeTakeFirstOrThrow()
    ).n,
  )

describe('coupon limits under concurrency', () => {
  raceIt('50 checkouts at once on a code limited to 10: exactly 10 orders carry it, 40 are refused', async () => {
    const creator = await createUser(db())
    const course = await ownedCourse(db(), creator.id, 5_000)
    const { id } = await couponFor('RACE10', { maxUses: 10 })
    const buyers = []
    for (let index = 0; index < 50; index++) buyers.push((await readyBuyer(course.id, 'RACE10')).id)
    const results = await checkoutsAtOnce(id, buyers)
    expect(results.filter((result) => result === 'order')).toHaveLength(10)
    expect(results.filter((result) => result === COUPON_REFUSALS.usedUp)).toHaveLength(40)
    expect(await carrying(id)).toBe(10)
    const discounted = await db()
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('coupon_code', '=', 'RACE10')
      .executeTakeFirstOrThrow()
    expect(Number(discounted.n)).toBe(10)
  })

  raceIt(
    'one customer limited to 1 use, 10 checkouts at once (10 accounts of one mailbox): 1 order carries it',
    async () => {
      const creator = await createUser(db())
      const course = await ownedCourse(db(), creator.id, 5_000)
      const { id } = await couponFor('ONCEEACH', { maxUsesPerCustomer: 1 })
      const buyers = []
      for (let index = 0; index < 10; index++) {
        buyers.push((await readyBuyer(course.id, 'ONCEEACH', `same.buyer+${index}@example.test`)).id)
      }
      const results = await checkoutsAtOnce(id, buyers)
      expect(results.filter((result) => result === 'order')).toHaveLength(1)
      expect(results.filter((result) => result === COUPON_REFUSALS.alreadyUsed)).toHaveLength(9)
      expect(await carrying(id)).toBe(1)
    },
  )

  raceIt('one account, 10 checkouts at once: one pending order, one use', async () => {
    const creator = await createUser(db())
    const course = await ownedCourse(db(), creator.id, 5_000)
    const { id } = await couponFor('ONEACCOUNT', { maxUsesPerCustomer: 1 })
    const buyer = await readyBuyer(course.id, 'ONEACCOUNT')
    const results = await checkoutsAtOnce(
      id,
      Array.from({ length: 10 }, () => buyer.id),
    )
    // The cart's one pending order is reused by the other nine (the same lines and discount).
    expect(results.every((result) => result === 'order')).toBe(true)
    expect(await carrying(id)).toBe(1)
  })
})

// A line's refund is its share of the captured amount (tax included) allocated once over the order's lines by largest
// remainder (money.ts `allocate`), as every split is: the same amount whichever order the lines are given back in, and
// never a cent of another line's money. Rounding each line's share on its own (Math.round) gave 3 lines of
// 1000, 1002 and 1007 + 20% tax (3611 captured) 1200 + 1202 + 1208 = 3610: the 1007 line refunded first got 1208 and
// the 1000 line refunded last 1201 (what was left), so what a line gave back depended on the order staff refunded the
// lines in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, payCartByCard, startPaymentsServer } from '../../support/payments-server.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db

beforeAll(async () => {
  // Stripe Tax on: the fake adds 20% of the order's total.
  shop = await startPaymentsServer({ stripeTax: true })
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())

const staff = () => shopCaller(db(), admin, payments)

/** A buyer who paid by card (20% tax on top) for courses priced `prices`; the order's lines in the prices' order. */
async function paidCourses(prices: number[], offset: number) {
  const courses = await pricedCourses(db(), { count: prices.length, offset })
  for (const [i, course] of courses.entries()) {
    await db().updateTable('courses').set({ price_minor: prices[i]! }).where('id', '=', course.id).execute()
  }
  const caller = await shopCaller(db(), await createUser(db()), payments)
  for (const course of courses) await caller.cart.add({ kind: 'course', courseId: course.id })
  const orderId = await payCartByCard(fake, caller)
  const detail = await (await staff()).admin.orders.detail({ id: orderId })
  const lineIds = courses.map((course) => detail.lines.find((line) => line.title === course.title)!.id)
  return { orderId, lineIds, captured: detail.capturedMinor }
}

/** Refunds the lines one by one in `order` (indexes into the prices); each line's refund by its price's index. */
async function refundOneByOne(prices: number[], offset: number, order: number[]) {
  const { orderId, lineIds, captured } = await paidCourses(prices, offset)
  const amounts: number[] = []
  for (const index of order) {
    const refund = await (await staff()).admin.orders.refund({ orderId, lineIds: [lineIds[index]!] })
    amounts[index] = refund.amountMinor
  }
  return { captured, amounts }
}

describe('a line refund of a taxed order', () => {
  it("gives back the line's largest-remainder share of what was captured, whichever line goes first", async () => {
    const prices = [1000, 1002, 1007]
    // 3009 + 20% (602) = 3611. Exact shares 1200.066, 1202.4666, 1208.4669 (x 3611 / 3009): by largest remainder
    // 1200, 1202, 1209 (sum 3611); rounded one by one 1200, 1202, 1208 (sum 3610).
    const forwards = await refundOneByOne(prices, 0, [0, 1, 2])
    expect(forwards.captured).toBe(3611)
    expect(forwards.amounts).toEqual([1200, 1202, 1209])

    const backwards = await refundOneByOne(prices, 3, [2, 1, 0])
    expect(backwards.captured).toBe(3611)
    expect(backwards.amounts).toEqual([1200, 1202, 1209])
  })
})

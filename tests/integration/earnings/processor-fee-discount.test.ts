// The processor's fee and a lost dispute's chargeback fee are allocated over the order's lines by their net — what
// was paid for each line after its coupon share (decision 0047), the net the creators' shares are credited on. With
// a code that takes 90 % off one creator's course only, that creator's line was paid a tenth of the other's, so it
// carries about a tenth of the fee. Before the fix the fees were allocated by list price, so the discounted creator
// paid half of each fee on money the buyer never paid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allocateByNet } from '../../../src-server/earnings/processor-fees.ts'
import { ownedCourse } from '../../support/earnings.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, payCartByCard, startPaymentsServer } from '../../support/payments-server.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
const db = () => shop.database.db
let seq = 0

beforeAll(async () => {
  shop = await startPaymentsServer()
  fake = shop.fake
})
afterAll(() => shop.close())

/** Two creators' courses at 100.00, bought together by card with a code taking 90 % off the first only. */
async function discountedOrder() {
  const creators = [await createUser(db()), await createUser(db())]
  const [discounted, full] = [
    await ownedCourse(db(), creators[0]!.id, 10_000),
    await ownedCourse(db(), creators[1]!.id, 10_000),
  ]
  const code = `NINETY${Date.now().toString(36).toUpperCase()}${seq++}`
  const editor = await callerAs(db(), await createUser(db(), { role: 'editor' }))
  await editor.admin.coupons.create({
    code,
    kind: 'percent',
    percentOff: 90,
    appliesTo: 'courses',
    courseIds: [discounted!.id],
  } as never)
  const buyer = await createUser(db())
  const caller = await shopCaller(db(), buyer, shop.payments)
  await caller.cart.add({ kind: 'course', courseId: discounted!.id })
  await caller.cart.add({ kind: 'course', courseId: full!.id })
  await caller.cart.applyCoupon({ code })
  const orderId = await payCartByCard(fake, caller)
  const order = await db()
    .selectFrom('orders')
    .select(['captured_minor', 'stripe_payment_intent_id'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()
  const lines = await db()
    .selectFrom('order_items')
    .select(['id', 'course_id', 'unit_price_minor', 'discount_minor'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
  const lineOf = (courseId: string) => lines.find((line) => line.course_id === courseId)!
  expect(lineOf(discounted!.id).discount_minor).toBe(9000)
  expect(lineOf(full!.id).discount_minor).toBe(0)
  const byNet = (fee: number) =>
    allocateByNet(
      fee,
      lines.map((line) => ({ id: line.id, netMinor: line.unit_price_minor - line.discount_minor })),
    )
  return { orderId, order, discounted: lineOf(discounted!.id), full: lineOf(full!.id), byNet }
}

const feeTaken = async (lineId: string) =>
  (
    await db()
      .selectFrom('earning_shares')
      .select('processor_fee_minor')
      .where('order_item_id', '=', lineId)
      .executeTakeFirstOrThrow()
  ).processor_fee_minor

const chargebackTaken = async (key: string) => {
  const rows = await db()
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .select('e.amount_minor')
    .where('t.key', '=', key)
    .where('e.account', '=', 'processor_fees')
    .execute()
  return rows.reduce((sum, row) => sum + Number(row.amount_minor), 0)
}

describe('fees over discounted lines', () => {
  it('the processor’s fee is allocated by what each line was paid, not its list price', async () => {
    const { order, discounted, full, byNet } = await discountedOrder()
    expect(order.captured_minor).toBe(1000 + 10_000)
    const parts = byNet(fake.connect.feeFor(order.captured_minor))
    expect(parts.get(discounted.id)!).toBeLessThan(parts.get(full.id)! / 5)
    expect(await feeTaken(discounted.id)).toBe(parts.get(discounted.id))
    expect(await feeTaken(full.id)).toBe(parts.get(full.id))
  })

  it('a lost dispute’s chargeback fee likewise', async () => {
    const { orderId, order, discounted, full, byNet } = await discountedOrder()
    const intent = order.stripe_payment_intent_id!
    const disputeId = `dp_test_${orderId.slice(0, 8)}`
    const amount = order.captured_minor
    expect(
      await fake.deliver('charge.dispute.created', fake.disputeOf(intent, 'needs_response', amount, { id: disputeId })),
    ).toBe(200)
    expect(await fake.deliver('charge.dispute.closed', fake.disputeOf(intent, 'lost', amount, { id: disputeId }))).toBe(
      200,
    )
    const parts = byNet(1500)
    expect(await chargebackTaken(`chargeback_fee:${discounted.id}:${disputeId}`)).toBe(parts.get(discounted.id))
    expect(await chargebackTaken(`chargeback_fee:${full.id}:${disputeId}`)).toBe(parts.get(full.id))
  })
})

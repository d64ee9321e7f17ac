// A dispute lost for part of the payment names no lines, as a partial refund made in the Stripe dashboard does: it is
// flagged for staff in /admin/orders (the same rule as charge.refunded's, orders/refunds.ts needsLineAssignment), and
// the lines staff say it took back are settled as the bank's take-back: their creators' shares reversed (kind
// 'dispute'), the others left alone. A loss of the whole remainder gives back every line at once, flagging nothing.
// Through the real webhook and the fake Stripe (decisions 0026, 0047, 0125, 0132).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { type CardOrder, disputeSale, payCoursesByCard } from '../../support/card-disputes.ts'
import { ownedCourse } from '../../support/earnings.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let admin: TestUser
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())

const staff = () => shopCaller(db(), admin, shop.payments)

/** Two creators' courses bought in one card order. */
async function twoCreatorsOrder() {
  const [alice, bob] = [await createUser(db()), await createUser(db())]
  const courses = [await ownedCourse(db(), alice.id, 4000), await ownedCourse(db(), bob.id, 6000)]
  const order = await payCoursesByCard(shop, courses)
  const lineOf = (courseId: string) => order.lines.find((line) => line.courseId === courseId)!
  return { alice, bob, order, aliceLine: lineOf(courses[0]!.id), bobLine: lineOf(courses[1]!.id) }
}

const pendingOf = async (creatorId: string) => (await creatorBalances(db(), creatorId))[0]?.pendingMinor ?? 0

const refundsOf = (orderId: string) =>
  db()
    .selectFrom('refunds')
    .select(['id', 'amount_minor', 'method', 'needs_line_assignment'])
    .where('order_id', '=', orderId)
    .execute()

const lose = async (order: CardOrder, amount: number) => {
  await disputeSale(shop, order, 'created', 'needs_response', amount)
  await disputeSale(shop, order, 'closed', 'lost', amount)
}

async function expectLedgerBalanced() {
  for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
}

describe('a dispute lost for part of the payment', () => {
  it('is flagged for staff, who say which line the bank took back: that line’s shares are reversed, not the other’s', async () => {
    const { alice, bob, order, aliceLine, bobLine } = await twoCreatorsOrder()
    await lose(order, 1000)

    const [refund] = await refundsOf(order.orderId)
    expect(refund).toMatchObject({ amount_minor: 1000, method: 'dispute', needs_line_assignment: true })
    const listed = (await (await staff()).admin.orders.list({ status: 'disputed' })).items
    expect(listed.find((row) => row.id === order.orderId)).toMatchObject({ needsLineAssignment: true })
    const detail = await (await staff()).admin.orders.detail({ id: order.orderId })
    expect(detail.refunds).toEqual([
      expect.objectContaining({ id: refund!.id, amountMinor: 1000, method: 'dispute', needsLineAssignment: true }),
    ])
    // Until staff say, the shares are the creators' (the dispute's hold has ended: decision 0125).
    expect([await pendingOf(alice.id), await pendingOf(bob.id)]).toEqual([aliceLine.shareMinor, bobLine.shareMinor])

    const assigned = await (await staff()).admin.orders.assignRefundLines({
      refundId: refund!.id,
      lineIds: [aliceLine.id],
    })
    expect(assigned.lines).toEqual([aliceLine.id])
    expect([await pendingOf(alice.id), await pendingOf(bob.id)]).toEqual([0, bobLine.shareMinor])
    // Taken back as the dispute's, like the lines of a whole loss.
    const reversal = await db()
      .selectFrom('ledger_transactions')
      .select(['kind', 'source'])
      .where('key', '=', `reversal:${aliceLine.id}`)
      .executeTakeFirstOrThrow()
    expect(reversal).toEqual({ kind: 'dispute', source: `refund:${refund!.id}` })
    const lines = await db()
      .selectFrom('order_items')
      .select(['id', 'refund_id'])
      .where('order_id', '=', order.orderId)
      .execute()
    expect(Object.fromEntries(lines.map((line) => [line.id, line.refund_id]))).toEqual({
      [aliceLine.id]: refund!.id,
      [bobLine.id]: null,
    })
    expect(await refundsOf(order.orderId)).toMatchObject([{ needs_line_assignment: false }])
    // The order stays Disputed: the bank has the money, the buyer's access stays withheld.
    const row = await db().selectFrom('orders').select('status').where('id', '=', order.orderId).executeTakeFirst()
    expect(row?.status).toBe('disputed')
    expect(await order.caller.purchases.entitlements()).toMatchObject({ courseIds: [] })
    const audit = await db().selectFrom('audit_log').select('action').where('entity_id', '=', order.orderId).execute()
    expect(audit.map((entry) => entry.action)).toEqual(['order.refund_lines_assigned'])
    await expectLedgerBalanced()
  })

  it('staff may give back no line: the flag clears and the platform carries the loss', async () => {
    const { alice, bob, order, aliceLine, bobLine } = await twoCreatorsOrder()
    await lose(order, 500)
    const [refund] = await refundsOf(order.orderId)
    expect(refund?.needs_line_assignment).toBe(true)
    await (await staff()).admin.orders.assignRefundLines({ refundId: refund!.id, lineIds: [] })
    expect(await refundsOf(order.orderId)).toMatchObject([{ needs_line_assignment: false }])
    expect([await pendingOf(alice.id), await pendingOf(bob.id)]).toEqual([aliceLine.shareMinor, bobLine.shareMinor])
    await expectLedgerBalanced()
  })

  it('of a one-line order is flagged too, as charge.refunded flags a partial dashboard refund of it', async () => {
    const creator = await createUser(db())
    const order = await payCoursesByCard(shop, [await ownedCourse(db(), creator.id, 3000)])
    await lose(order, 700)
    expect(await refundsOf(order.orderId)).toMatchObject([
      { amount_minor: 700, method: 'dispute', needs_line_assignment: true },
    ])
  })
})

describe('a dispute lost for the whole remainder', () => {
  it('gives back every open line at once, reverses every share and flags nothing', async () => {
    const { alice, bob, order, aliceLine, bobLine } = await twoCreatorsOrder()
    await lose(order, order.captured_minor)
    expect(await refundsOf(order.orderId)).toMatchObject([
      { amount_minor: order.captured_minor, method: 'dispute', needs_line_assignment: false },
    ])
    const lines = await db()
      .selectFrom('order_items')
      .select('refund_id')
      .where('id', 'in', [aliceLine.id, bobLine.id])
      .execute()
    expect(lines.every((line) => line.refund_id !== null)).toBe(true)
    expect([await pendingOf(alice.id), await pendingOf(bob.id)]).toEqual([0, 0])
    const listed = (await (await staff()).admin.orders.list({ status: 'disputed' })).items
    expect(listed.find((row) => row.id === order.orderId)).toMatchObject({ needsLineAssignment: false })
    await expectLedgerBalanced()
  })
})

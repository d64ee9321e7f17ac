// The payment processor's fees on creators' sales (issue 31, decision 0047), through the real webhook and the fake
// Stripe (whose card charges carry a balance transaction with a 2.9 % + 30 fee): the payment's fee is allocated over
// the order's lines by net, each creator line's part lowers its creator's share, replays change nothing, a refund
// takes back exactly what was left credited, and the ledger sums to zero. A Stripe outage while reading the fee
// loses no sale: the sweep takes the fee later. A lost dispute's chargeback fee is charged the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { allocateByNet } from '../../../src-server/earnings/processor-fees.ts'
import { releaseDueHolds } from '../../../src-server/earnings/shares.ts'
import { creatorEntries, creatorMonthlyTotals } from '../../../src-server/earnings/statements.ts'
import { settleDueProcessorFees, settleProcessorFees } from '../../../src-server/flows/processor-fees.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import { stripeRefundGateway } from '../../../src-server/flows/stripe-refunds.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import type { StripeApi } from '../../../src-server/payments/stripe.ts'
import { ownedCourse, type SoldCourse } from '../../support/earnings.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, payCartByCard, startPaymentsServer } from '../../support/payments-server.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let stripe: StripeApi
let admin: TestUser
let platformCourse: SoldCourse
const db = () => shop.database.db
const DAY = 86_400_000

beforeAll(async () => {
  shop = await startPaymentsServer()
  fake = shop.fake
  stripe = shop.payments.stripe!
  admin = await createUser(db(), { role: 'admin' })
  const [course] = await pricedCourses(db(), { count: 1 })
  platformCourse = { id: course!.id, title: course!.title, price_minor: course!.price_minor }
})
afterAll(() => shop.close())

/** A creator without a plan (Basic's 10 %) and their course at `priceMinor`. */
async function creatorWithCourse(priceMinor: number) {
  const creator = await createUser(db())
  return { creator, course: await ownedCourse(db(), creator.id, priceMinor) }
}

/** A new buyer pays the courses by card through the webhook; the order, its lines and what Stripe took. */
async function payByCard(courses: SoldCourse[]) {
  const buyer = await createUser(db())
  const caller = await shopCaller(db(), buyer, shop.payments)
  for (const course of courses) await caller.cart.add({ kind: 'course', courseId: course.id })
  const orderId = await payCartByCard(fake, caller)
  const order = await db()
    .selectFrom('orders')
    .select(['reference', 'captured_minor', 'stripe_payment_intent_id', 'stripe_session_id'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()
  const lines = await db()
    .selectFrom('order_items')
    .select(['id', 'course_id', 'unit_price_minor'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
  return { orderId, order, lines, lineOf: (course: SoldCourse) => lines.find((line) => line.course_id === course.id)! }
}

const shareOf = (lineId: string) =>
  db()
    .selectFrom('earning_shares')
    .select(['net_minor', 'platform_fee_minor', 'processor_fee_minor', 'creator_minor', 'processor_fee_due'])
    .where('order_item_id', '=', lineId)
    .executeTakeFirstOrThrow()

const balanceOf = async (creatorId: string) => {
  const [usd] = await creatorBalances(db(), creatorId)
  return { pending: usd?.pendingMinor ?? 0, available: usd?.availableMinor ?? 0 }
}

/** Every posting's entries sum to zero, so the whole ledger does. */
async function expectLedgerBalanced() {
  for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
}

const postingsCount = async () =>
  Number(
    (
      await db()
        .selectFrom('ledger_transactions')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

/** The entries of the posting with this key (amounts as numbers: PostgreSQL reads bigint as text). */
const feeEntries = async (key: string) =>
  (
    await db()
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
      .select(['e.account', 'e.creator_id', 'e.amount_minor', 't.kind', 't.source'])
      .where('t.key', '=', key)
      .orderBy('e.account')
      .execute()
  ).map((entry) => ({ ...entry, amount_minor: Number(entry.amount_minor) }))

describe('the processor’s fee', () => {
  it('is allocated over the order’s lines by net; each creator line’s part lowers exactly its creator’s share', async () => {
    const a = await creatorWithCourse(4999)
    const b = await creatorWithCourse(12_345)
    const paid = await payByCard([a.course, b.course, platformCourse])
    const fee = fake.connect.feeFor(paid.order.captured_minor)
    expect(fee).toBeGreaterThan(30)
    // The parts, over every line by net (the platform's own course takes its part too), sum to the payment's fee.
    const parts = allocateByNet(
      fee,
      paid.lines.map((line) => ({ id: line.id, netMinor: line.unit_price_minor })),
    )
    expect([...parts.values()].reduce((sum, part) => sum + part, 0)).toBe(fee)

    for (const { creator, course } of [a, b]) {
      const line = paid.lineOf(course)
      const part = parts.get(line.id)!
      const share = await shareOf(line.id)
      const platformFee = Math.round(course.price_minor * 0.1)
      expect(share).toEqual({
        net_minor: course.price_minor,
        platform_fee_minor: platformFee,
        processor_fee_minor: part,
        creator_minor: course.price_minor - platformFee - part,
        processor_fee_due: false,
      })
      expect(await balanceOf(creator.id)).toEqual({ pending: share.creator_minor, available: 0 })
      // The creator's statement names it, beside the sale.
      const { entries } = await creatorEntries(db(), creator.id, 1, 10)
      expect(entries.map((entry) => [entry.description, entry.pendingMinor])).toEqual([
        [`Card processing fee: ${course.title} (order ${paid.order.reference})`, -part],
        [`Sale of ${course.title} (order ${paid.order.reference})`, share.creator_minor + part],
      ])
      expect(await feeEntries(`processor_fee:${line.id}`)).toEqual([
        {
          account: 'creator_pending',
          creator_id: creator.id,
          amount_minor: -part,
          kind: 'processor_fee',
          source: expect.stringMatching(/^stripe:txn_/),
        },
        {
          account: 'processor_fees',
          creator_id: null,
          amount_minor: part,
          kind: 'processor_fee',
          source: expect.any(String),
        },
      ])
    }
    await expectLedgerBalanced()
  })

  it('replaying the paid session’s event, or sweeping again, changes nothing', async () => {
    const { creator, course } = await creatorWithCourse(2500)
    const paid = await payByCard([course])
    const before = { postings: await postingsCount(), balance: await balanceOf(creator.id) }
    const session = fake.sessions.get(paid.order.stripe_session_id!)!
    expect(await fake.deliver('checkout.session.completed', session)).toBe(200) // a new event id: a replay
    expect(await settleProcessorFees(db(), stripe, paid.orderId)).toBe('not_due')
    expect((await settleDueProcessorFees(db(), stripe, clock.now())).taken).toBe(0)
    expect({ postings: await postingsCount(), balance: await balanceOf(creator.id) }).toEqual(before)
    await expectLedgerBalanced()
  })

  it('a refund after it takes back exactly what the creator was left with', async () => {
    const { creator, course } = await creatorWithCourse(7999)
    const paid = await payByCard([course])
    const line = paid.lineOf(course)
    const share = await shareOf(line.id)
    expect(share.processor_fee_minor).toBe(fake.connect.feeFor(7999))
    await refundOrder(
      db(),
      { orderId: paid.orderId, actor: { id: admin.id, email: admin.email } },
      stripeRefundGateway(stripe),
    )
    const reversal = await feeEntries(`reversal:${line.id}`)
    expect(reversal.find((entry) => entry.account === 'creator_pending')?.amount_minor).toBe(-share.creator_minor)
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: 0 })
    await expectLedgerBalanced()
  })

  it('the studio’s month shows it as Fees, and the month’s Net is what the balances kept', async () => {
    const { creator, course } = await creatorWithCourse(2499)
    const paid = await payByCard([course])
    const share = await shareOf(paid.lineOf(course).id)
    const thisMonth = async () => (await creatorMonthlyTotals(db(), creator.id, clock.now())).series[0]!.months.at(-1)
    const earned = share.creator_minor + share.processor_fee_minor
    expect(await thisMonth()).toMatchObject({
      earnedMinor: earned,
      refundedMinor: 0,
      feesMinor: share.processor_fee_minor,
      netMinor: share.creator_minor,
    })
    expect((await balanceOf(creator.id)).pending).toBe(share.creator_minor)

    await refundOrder(
      db(),
      { orderId: paid.orderId, actor: { id: admin.id, email: admin.email } },
      stripeRefundGateway(stripe),
    )
    expect(await thisMonth()).toMatchObject({
      earnedMinor: earned,
      refundedMinor: share.creator_minor,
      feesMinor: share.processor_fee_minor,
      netMinor: 0,
    })
  })
})

describe('a Stripe outage while reading the fee', () => {
  it('loses no sale: the share is credited, and the sweep takes the fee once Stripe answers', async () => {
    const { creator, course } = await creatorWithCourse(3000)
    fake.failNextPaymentIntentRead()
    const paid = await payByCard([course])
    const line = paid.lineOf(course)
    expect(await shareOf(line.id)).toMatchObject({
      creator_minor: 2700,
      processor_fee_minor: 0,
      processor_fee_due: true,
    })
    expect(await balanceOf(creator.id)).toEqual({ pending: 2700, available: 0 })

    fake.failNextPaymentIntentRead()
    expect(await settleDueProcessorFees(db(), stripe, clock.now())).toMatchObject({ taken: 0, failed: 1 })
    expect(await settleDueProcessorFees(db(), stripe, clock.now())).toMatchObject({ taken: 1, failed: 0 })
    const fee = fake.connect.feeFor(3000)
    expect(await shareOf(line.id)).toMatchObject({ creator_minor: 2700 - fee, processor_fee_minor: fee })
    expect(await balanceOf(creator.id)).toEqual({ pending: 2700 - fee, available: 0 })
    expect((await settleDueProcessorFees(db(), stripe, clock.now())).taken).toBe(0)
    await expectLedgerBalanced()
  })

  it('a fee known only after the hold ended comes out of available, and a refund then takes back the rest', async () => {
    const { creator, course } = await creatorWithCourse(5000)
    fake.failNextPaymentIntentRead()
    const paid = await payByCard([course])
    const line = paid.lineOf(course)
    await releaseDueHolds(db(), new Date(clock.nowMs() + 31 * DAY))
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: 4500 })
    expect(await settleProcessorFees(db(), stripe, paid.orderId)).toBe('taken')
    const fee = fake.connect.feeFor(5000)
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: 4500 - fee })
    await refundOrder(
      db(),
      { orderId: paid.orderId, actor: { id: admin.id, email: admin.email } },
      stripeRefundGateway(stripe),
    )
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: 0 })
    expect((await shareOf(line.id)).processor_fee_due).toBe(false)
    await expectLedgerBalanced()
  })

  it('a line refunded before its fee was known leaves the fee to the platform', async () => {
    const { creator, course } = await creatorWithCourse(4000)
    fake.failNextPaymentIntentRead()
    const paid = await payByCard([course])
    const line = paid.lineOf(course)
    await refundOrder(
      db(),
      { orderId: paid.orderId, actor: { id: admin.id, email: admin.email } },
      stripeRefundGateway(stripe),
    )
    expect(await settleProcessorFees(db(), stripe, paid.orderId)).toBe('taken')
    const fee = fake.connect.feeFor(4000)
    expect(await feeEntries(`processor_fee:${line.id}`)).toEqual([
      expect.objectContaining({ account: 'platform_fees', amount_minor: -fee }),
      expect.objectContaining({ account: 'processor_fees', amount_minor: fee }),
    ])
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: 0 })
    expect(await shareOf(line.id)).toMatchObject({ creator_minor: 3600, processor_fee_minor: 0 })
    await expectLedgerBalanced()
  })
})

describe('a lost dispute’s chargeback fee', () => {
  it('is allocated over the disputed lines by net and charged once to each creator line’s creators', async () => {
    const a = await creatorWithCourse(6000)
    const b = await creatorWithCourse(2000)
    const paid = await payByCard([a.course, b.course, platformCourse])
    const intent = paid.order.stripe_payment_intent_id!
    const amount = paid.order.captured_minor
    const disputeId = `dp_test_${paid.orderId.slice(0, 8)}`
    const sharesBefore = new Map(
      await Promise.all([a, b].map(async ({ course }) => [course.id, await shareOf(paid.lineOf(course).id)] as const)),
    )
    expect(
      await fake.deliver('charge.dispute.created', fake.disputeOf(intent, 'needs_response', amount, { id: disputeId })),
    ).toBe(200)
    const lost = fake.disputeOf(intent, 'lost', amount, { id: disputeId })
    expect(await fake.deliver('charge.dispute.closed', lost)).toBe(200)
    const postings = await postingsCount()
    expect(await fake.deliver('charge.dispute.closed', lost)).toBe(200) // a replay changes nothing
    expect(await postingsCount()).toBe(postings)

    const parts = allocateByNet(
      1500,
      paid.lines.map((line) => ({ id: line.id, netMinor: line.unit_price_minor })),
    )
    expect([...parts.values()].reduce((sum, part) => sum + part, 0)).toBe(1500)
    for (const { creator, course } of [a, b]) {
      const line = paid.lineOf(course)
      const part = parts.get(line.id)!
      expect(part).toBeGreaterThan(0)
      // The dispute took back exactly the share (pending), and the line's part of the fee came out of available.
      expect((await feeEntries(`reversal:${line.id}`)).find((e) => e.account === 'creator_pending')?.amount_minor).toBe(
        -sharesBefore.get(course.id)!.creator_minor,
      )
      expect(await feeEntries(`chargeback_fee:${line.id}:${disputeId}`)).toEqual([
        expect.objectContaining({ account: 'creator_available', creator_id: creator.id, amount_minor: -part }),
        expect.objectContaining({ account: 'processor_fees', amount_minor: part }),
      ])
      expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: -part })
      const { entries } = await creatorEntries(db(), creator.id, 1, 10)
      expect(entries.map((entry) => entry.description)).toContain(
        `Chargeback fee (dispute lost): ${course.title} (order ${paid.order.reference})`,
      )
    }
    await expectLedgerBalanced()
  })

  it('settled in another currency: converted back at its rate, and none charged when Stripe gives no rate', async () => {
    for (const [rate, expected] of [
      [1.25, 1200],
      [null, 0],
    ] as const) {
      const { creator, course } = await creatorWithCourse(5000)
      const paid = await payByCard([course])
      const intent = paid.order.stripe_payment_intent_id!
      const disputeId = `dp_fx_${paid.orderId.slice(0, 8)}`
      // The platform settles in EUR: the USD charge's $12.00 chargeback fee is €15.00 at 1.25.
      const settled = [{ id: `txn_fx_${paid.orderId.slice(0, 8)}`, fee: 1500, currency: 'eur', exchange_rate: rate }]
      const lost = { ...fake.disputeOf(intent, 'lost', paid.order.captured_minor, { id: disputeId }) }
      expect(await fake.deliver('charge.dispute.closed', { ...lost, balance_transactions: settled })).toBe(200)
      const charged = await feeEntries(`chargeback_fee:${paid.lineOf(course).id}:${disputeId}`)
      expect(charged.find((entry) => entry.account === 'processor_fees')?.amount_minor ?? 0).toBe(expected)
      expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: 0 - expected })
    }
    await expectLedgerBalanced()
  })
})

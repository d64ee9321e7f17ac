// The money path end to end under random carts (the rule: integer minor units; every split allocated once, by
// largest remainder, stored and reused). Each run: creators' courses (some with co-instructors at random
// percentages), a random cart of them (with a bundle and a creator's coupon or not), paid by card through the real
// webhook and the fake Stripe (whose charges carry a 2.9 % + 30 fee, taken from the creators' shares), then random
// staff refunds of chosen lines through Stripe (repeated, some lines twice), then the refund window's end and the
// month's payouts (fake Stripe Connect transfers, run twice). After every run: the lines' paid amounts sum to what was captured; each line's stored split (platform fee + processor fee +
// creators' parts) sums to its net; no line gets back more than its part of the capture; each refund's reversal is
// exactly the stored parts of its lines; the ledger balances; and each creator's balance equals the parts of the
// lines they still keep (what their statements read), and is transferred exactly that, once, never a negative amount.
// MONEY_PROPERTY_RUNS=<n> runs more (25 by default).
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { addCoInstructor } from '../../../src-server/creators/course-instructors.ts'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { releaseDueHolds } from '../../../src-server/earnings/shares.ts'
import { setCourseEarningShares } from '../../../src-server/flows/course-team-invites.ts'
import { payoutMonthOf, runPayouts } from '../../../src-server/flows/creator-payouts.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import { stripeRefundGateway } from '../../../src-server/flows/stripe-refunds.ts'
import { seedBundle } from '../../support/bundles.ts'
import { ownedCourse, type SoldCourse } from '../../support/earnings.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import {
  onboardedCreator,
  type PaymentsServer,
  payCartByCard,
  startPaymentsServer,
} from '../../support/payments-server.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let admin: TestUser
let editor: Awaited<ReturnType<typeof callerAs>>
const db = () => shop.database.db
const DAY = 86_400_000
let seq = 0

beforeAll(async () => {
  shop = await startPaymentsServer()
  admin = await createUser(db(), { role: 'admin' })
  editor = await callerAs(db(), await createUser(db(), { role: 'editor' }))
})
afterAll(() => shop.close())

const courseArb = fc.record({
  price: fc.integer({ min: 100, max: 30_000 }),
  /** Co-instructors' percentages (the owner holds the rest), in hundredths of a percent. */
  team: fc.constantFrom([], [3333], [1667, 3333], [5000], [1, 9998]),
})
const runArb = fc.record({
  courses: fc.array(courseArb, { minLength: 1, maxLength: 4 }),
  bundle: fc.option(fc.integer({ min: 50, max: 95 }), { nil: null }),
  coupon: fc.option(fc.integer({ min: 1, max: 99 }), { nil: null }),
  /** Refunds: each a set of line indexes (indexes of lines already refunded are sent again). */
  refunds: fc.array(fc.uniqueArray(fc.nat(5), { minLength: 1, maxLength: 3 }), { maxLength: 4 }),
})

const num = (value: number | string | bigint) => Number(value)

it('a paid cart, its refunds and its creators’ balances: every split allocated once, stored and reused', async () => {
  await fc.assert(
    fc.asyncProperty(runArb, async (run) => {
      seq++
      const owners: TestUser[] = []
      const people: TestUser[] = []
      const accounts = new Map<string, string>()
      const courses: SoldCourse[] = []
      for (const spec of run.courses) {
        const { creator: owner, accountId } = await onboardedCreator(shop)
        accounts.set(owner.id, accountId)
        owners.push(owner)
        people.push(owner)
        const course = await ownedCourse(db(), owner.id, spec.price)
        courses.push(course)
        if (spec.team.length) {
          const team: { userId: string; percent: number }[] = []
          for (const basisPoints of spec.team) {
            const { creator: co, accountId: coAccount } = await onboardedCreator(shop)
            accounts.set(co.id, coAccount)
            people.push(co)
            await addCoInstructor(db(), course.id, co.id)
            team.push({ userId: co.id, percent: basisPoints / 100 })
          }
          const rest = 10_000 - spec.team.reduce((sum, bp) => sum + bp, 0)
          await setCourseEarningShares(db(), owner.id, {
            courseId: course.id,
            shares: [{ userId: owner.id, percent: rest / 100 }, ...team],
          })
        }
      }
      const buyer = await createUser(db())
      const caller = await shopCaller(db(), buyer, shop.payments)
      // The first two courses in a bundle at a random part of their list price, when there are two.
      const bundled = run.bundle !== null && courses.length >= 2 ? courses.slice(0, 2) : []
      if (bundled.length) {
        const list = bundled.reduce((sum, course) => sum + course.price_minor, 0)
        const bundle = await seedBundle(db(), {
          courseIds: bundled.map((course) => course.id),
          priceMinor: Math.max(1, Math.floor((list * (run.bundle ?? 100)) / 100)),
        })
        await caller.cart.add({ kind: 'bundle', bundleId: bundle.id })
      }
      for (const course of courses.slice(bundled.length)) await caller.cart.add({ kind: 'course', courseId: course.id })
      // A percent code on the courses, the bundle's among them (its course lines are ordinary lines: decision 0147).
      if (run.coupon !== null && courses.length > bundled.length) {
        const code = `PROP${seq}X${Date.now().toString(36).toUpperCase()}`
        await editor.admin.coupons.create({
          code,
          kind: 'percent',
          percentOff: run.coupon,
          appliesTo: 'courses',
          courseIds: courses.map((course) => course.id),
        } as never)
        await caller.cart.applyCoupon({ code })
      }
      const orderId = await payCartByCard(shop.fake, caller)
      const order = await db()
        .selectFrom('orders')
        .select(['captured_minor', 'total_minor', 'status'])
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow()
      const lines = await db()
        .selectFrom('order_items')
        .select(['id', 'course_id', 'unit_price_minor', 'discount_minor'])
        .where('order_id', '=', orderId)
        .orderBy('id')
        .execute()
      // The order: one line per course, the lines' paid amounts sum to the capture (no tax on these orders).
      expect(lines).toHaveLength(courses.length)
      const paidOf = (line: (typeof lines)[number]) => line.unit_price_minor - line.discount_minor
      expect(lines.reduce((sum, line) => sum + paidOf(line), 0)).toBe(order.captured_minor)
      for (const line of lines) {
        expect(Number.isInteger(line.unit_price_minor) && Number.isInteger(line.discount_minor)).toBe(true)
        expect(paidOf(line)).toBeGreaterThanOrEqual(0)
      }

      // Each line's stored split sums to its net; its creators' parts to the creators' part.
      const shares = await db()
        .selectFrom('earning_shares')
        .select(['order_item_id', 'net_minor', 'platform_fee_minor', 'processor_fee_minor', 'creator_minor'])
        .where('order_id', '=', orderId)
        .execute()
      // The lines' creator parts as they stand (read again once the holds are released).
      const readParts = () =>
        db()
          .selectFrom('earning_share_parts')
          .select(['order_item_id', 'creator_id', 'creator_minor'])
          .where(
            'order_item_id',
            'in',
            lines.map((line) => line.id),
          )
          .execute()
      const parts = await readParts()
      const partsOf = (lineId: string) => parts.filter((part) => part.order_item_id === lineId)
      for (const line of lines.filter((l) => paidOf(l) > 0)) {
        const share = shares.find((row) => row.order_item_id === line.id)
        expect(share).toBeDefined()
        if (!share) continue
        expect(share.net_minor).toBe(paidOf(line))
        expect(share.platform_fee_minor + share.processor_fee_minor + share.creator_minor).toBe(share.net_minor)
        expect(share.creator_minor).toBeGreaterThanOrEqual(0)
        expect(partsOf(line.id).reduce((sum, part) => sum + part.creator_minor, 0)).toBe(share.creator_minor)
      }
      const stripeFee = shares.reduce((sum, share) => sum + share.processor_fee_minor, 0)
      expect(stripeFee).toBeLessThanOrEqual(shop.fake.connect.feeFor(order.captured_minor))

      // Random staff refunds of chosen lines through Stripe, some lines twice.
      const refunded = new Set<string>()
      for (const indexes of run.refunds) {
        const chosen = [...new Set(indexes.map((index) => lines[index % lines.length]!.id))]
        const fresh = chosen.filter((id) => !refunded.has(id))
        const refund = (lineIds: string[]) =>
          refundOrder(
            db(),
            { orderId, lineIds, actor: { id: admin.id, email: admin.email }, reason: 'property' },
            stripeRefundGateway(shop.payments.stripe!),
          )
        // A line refunded before is refused, and the whole request with it (nothing is given back twice) ...
        if (fresh.length < chosen.length)
          await expect(refund(chosen)).rejects.toThrow(/already been refunded|Only a paid order/)
        // ... then the lines not refunded yet are.
        if (fresh.length) await refund(fresh)
        for (const id of fresh) refunded.add(id)
      }
      const refunds = await db()
        .selectFrom('refunds')
        .select(['amount_minor'])
        .where('order_id', '=', orderId)
        .execute()
      const given = refunds.reduce((sum, refund) => sum + refund.amount_minor, 0)
      expect(given).toBeLessThanOrEqual(order.captured_minor)
      // No line gets back more than it was paid: the refunds of the lines refunded are at most their paid amounts.
      const refundedPaid = lines.filter((l) => refunded.has(l.id)).reduce((sum, l) => sum + paidOf(l), 0)
      expect(given).toBeLessThanOrEqual(refundedPaid)
      if (refunded.size === lines.length) expect(given).toBe(order.captured_minor)

      // Each refunded line's reversal takes back exactly its stored parts (as they stand after the fee was taken).
      for (const line of lines) {
        const rows = await db()
          .selectFrom('ledger_entries as e')
          .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
          .select(['e.creator_id', 'e.amount_minor'])
          .where('t.key', '=', `reversal:${line.id}`)
          .where('e.creator_id', 'is not', null)
          .execute()
        const stored = partsOf(line.id).filter((part) => part.creator_minor !== 0)
        if (!refunded.has(line.id) || !shares.some((share) => share.order_item_id === line.id)) {
          expect(rows).toEqual([])
          continue
        }
        const nowParts = await db()
          .selectFrom('earning_share_parts')
          .select(['creator_id', 'creator_minor'])
          .where('order_item_id', '=', line.id)
          .execute()
        expect(
          rows
            .map((row) => [row.creator_id, -num(row.amount_minor)])
            .sort()
            .filter(([, amount]) => amount !== 0),
        ).toEqual(
          nowParts
            .map((part) => [part.creator_id, part.creator_minor])
            .sort()
            .filter(([, amount]) => amount !== 0),
        )
        // A line so small that its fees took the whole of it (a 90 % coupon on 1.13) left its creators nothing: nothing
        // is taken back from them either.
        if (stored.length === 0) expect(rows.filter((row) => num(row.amount_minor) !== 0)).toEqual([])
      }

      // The refund window ends: what is kept becomes available.
      await releaseDueHolds(db(), new Date(Date.now() + 31 * DAY))
      for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
      const finalParts = await readParts()
      for (const person of people) {
        const kept = finalParts
          .filter((part) => part.creator_id === person.id && !refunded.has(part.order_item_id))
          .reduce((sum, part) => sum + part.creator_minor, 0)
        const [usd] = await creatorBalances(db(), person.id)
        expect((usd?.pendingMinor ?? 0) + (usd?.availableMinor ?? 0) + (usd?.paidOutMinor ?? 0)).toBe(kept)
        expect(usd?.pendingMinor ?? 0).toBe(0)
        expect(usd?.availableMinor ?? 0).toBeGreaterThanOrEqual(0)
      }

      // The month's payouts (fake Stripe Connect transfers): each creator is paid exactly what they keep, once, and
      // never a negative amount; a second run pays nothing more.
      for (let again = 0; again < 2; again += 1) {
        await runPayouts(db(), shop.payments.stripe, { month: payoutMonthOf(new Date()), thresholdMinor: 1 })
      }
      for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
      for (const person of people) {
        const kept = finalParts
          .filter((part) => part.creator_id === person.id && !refunded.has(part.order_item_id))
          .reduce((sum, part) => sum + part.creator_minor, 0)
        const transfers = [...shop.fake.connect.transfers.values()].filter(
          (transfer) => transfer.destination === accounts.get(person.id),
        )
        for (const transfer of transfers) expect(transfer.amount).toBeGreaterThan(0)
        expect(transfers.reduce((sum, transfer) => sum + transfer.amount, 0)).toBe(kept)
        const [usd] = await creatorBalances(db(), person.id)
        expect({ available: usd?.availableMinor ?? 0, paidOut: usd?.paidOutMinor ?? 0 }).toEqual({
          available: 0,
          paidOut: kept,
        })
      }
    }),
    { numRuns: Number(process.env.MONEY_PROPERTY_RUNS ?? 25), endOnFailure: true },
  )
}, 600_000)

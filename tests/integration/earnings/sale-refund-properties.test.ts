// The money path end to end under random carts and refunds (decision 0115): creators' courses (one to three creators,
// some with co-instructors at random percentages), sometimes a bundle of them, bought by card with Stripe Tax through
// the signed checkout webhook, then refunded by staff line by line (random lines, repeated, in random order; a
// repeat of a refunded line is refused). After every step: the invoice's lines plus its tax are what was captured;
// each line's stored split (platform fee + processor fee + creators' parts) is exactly its net; no refund gives back
// more than the lines it names were paid (their share of the capture, by largest remainder) nor more than captured;
// each refunded line's reversal takes back exactly the stored parts; the ledger sums to zero per currency; and each
// creator's pending + available, and their month's statement, is exactly their stored parts of the lines not refunded.
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { addCoInstructor, setCourseShares } from '../../../src-server/creators/course-instructors.ts'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { creatorEntriesOfMonth, monthOf } from '../../../src-server/earnings/statements.ts'
import { paidOfLine } from '../../../src-server/orders/paid-line.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { allocate } from '../../../src-shared/money.ts'
import { seedBundle } from '../../support/bundles.ts'
import { ownedCourse } from '../../support/earnings.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, payCartByCard, startPaymentsServer } from '../../support/payments-server.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer({ stripeTax: true })
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())

const courseSpec = fc.record({
  price: fc.integer({ min: 100, max: 30_000 }),
  creator: fc.nat(2),
  /** Basis points of up to two co-instructors (the owner keeps the rest); none: the owner alone. */
  co: fc.array(fc.integer({ min: 1, max: 4_000 }), { maxLength: 2 }),
})

const scenario = fc.record({
  courses: fc.array(courseSpec, { minLength: 1, maxLength: 4 }),
  /** A bundle of the first two courses at this fraction (per mille) of their list prices, when there are two. */
  bundlePerMille: fc.option(fc.integer({ min: 300, max: 990 }), { nil: null }),
  /** Lines refunded one step at a time (indexes into the order's lines, repeats included). */
  refunds: fc.array(fc.nat(5), { maxLength: 5 }),
})

async function linesOf(orderId: string) {
  return db()
    .selectFrom('order_items')
    .select(['id', 'unit_price_minor', 'discount_minor', 'free_trial', 'refunded_at'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
}

async function sharesOf(lineIds: string[]) {
  const shares = await db()
    .selectFrom('earning_shares')
    .select(['order_item_id', 'net_minor', 'platform_fee_minor', 'processor_fee_minor', 'creator_minor'])
    .where('order_item_id', 'in', lineIds)
    .execute()
  const parts = await db()
    .selectFrom('earning_share_parts')
    .select(['order_item_id', 'creator_id', 'creator_minor'])
    .where('order_item_id', 'in', lineIds)
    .execute()
  return { shares, parts }
}

async function reversalOf(lineId: string) {
  return db()
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .select(['e.creator_id', 'e.amount_minor'])
    .where('t.key', '=', `reversal:${lineId}`)
    .where('e.creator_id', 'is not', null)
    .execute()
}

it('splits each paid line once and takes back exactly that split, whatever the cart and the refunds', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async ({ courses: specs, bundlePerMille, refunds }) => {
      const creators = await Promise.all([0, 1, 2].map(() => createUser(db())))
      const everyone = new Set<string>()
      const courses = []
      for (const spec of specs) {
        const owner = creators[spec.creator]!
        const course = await ownedCourse(db(), owner.id, spec.price)
        const team = [owner.id]
        for (const _ of spec.co) {
          const co = await createUser(db())
          await addCoInstructor(db(), course.id, co.id)
          team.push(co.id)
        }
        const coPoints = spec.co.reduce((a, b) => a + b, 0)
        if (spec.co.length > 0) {
          const shares = team.map((userId, index) => ({
            userId,
            basisPoints: index === 0 ? 10_000 - coPoints : spec.co[index - 1]!,
          }))
          expect(await setCourseShares(db(), course.id, shares)).toBe('saved')
        }
        for (const id of team) everyone.add(id)
        courses.push(course)
      }
      const buyer = await createUser(db())
      const caller = await shopCaller(db(), buyer, payments)
      const [first, second] = courses
      const bundled = bundlePerMille !== null && first && second
      if (bundled) {
        const price = Math.max(1, Math.floor(((first.price_minor + second.price_minor) * bundlePerMille) / 1000))
        const bundle = await seedBundle(db(), { courseIds: [first.id, second.id], priceMinor: price })
        await caller.cart.add({ kind: 'bundle', bundleId: bundle.id })
      }
      for (const course of bundled ? courses.slice(2) : courses) {
        await caller.cart.add({ kind: 'course', courseId: course.id })
      }
      const orderId = await payCartByCard(fake, caller)
      const order = await db()
        .selectFrom('orders')
        .select(['captured_minor', 'tax_minor'])
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow()
      const lines = await linesOf(orderId)
      const paid = lines.map(paidOfLine)
      // The invoice's lines plus its tax are what was captured.
      expect(paid.reduce((a, b) => a + b, 0) + order.tax_minor).toBe(order.captured_minor)
      const { shares, parts } = await sharesOf(lines.map((line) => line.id))
      expect(shares).toHaveLength(lines.length)
      for (const share of shares) {
        const line = lines.find((l) => l.id === share.order_item_id)!
        expect(share.net_minor).toBe(paidOfLine(line))
        expect(share.platform_fee_minor + share.processor_fee_minor + share.creator_minor).toBe(share.net_minor)
        const own = parts.filter((part) => part.order_item_id === share.order_item_id)
        expect(own.reduce((sum, part) => sum + part.creator_minor, 0)).toBe(share.creator_minor)
        for (const part of own) expect(part.creator_minor).toBeGreaterThanOrEqual(0)
      }
      // Each line's part of the capture (tax included), split once.
      const captureShares = allocate(order.captured_minor, paid)
      const staff = await shopCaller(db(), admin, payments)
      let refunded = 0
      const gone = new Set<string>()
      for (const pick of refunds) {
        const line = lines[pick % lines.length]!
        if (gone.has(line.id)) {
          await expect(staff.admin.orders.refund({ orderId, lineIds: [line.id] })).rejects.toBeTruthy()
          continue
        }
        await staff.admin.orders.refund({ orderId, lineIds: [line.id] })
        gone.add(line.id)
        const now = await db()
          .selectFrom('orders')
          .select('refunded_minor')
          .where('id', '=', orderId)
          .executeTakeFirstOrThrow()
        const given = now.refunded_minor - refunded
        refunded = now.refunded_minor
        // Never more than the line was paid (its share of the capture), never more than captured.
        const index = lines.indexOf(line)
        expect(given).toBeLessThanOrEqual(captureShares[index]!)
        expect(refunded).toBeLessThanOrEqual(order.captured_minor)
        if (gone.size < lines.length) expect(given).toBe(captureShares[index])
        else expect(refunded).toBe(order.captured_minor)
        // The reversal takes back exactly the stored parts.
        const stored = parts.filter((part) => part.order_item_id === line.id)
        const reversed = await reversalOf(line.id)
        expect(
          reversed
            .map((entry) => [entry.creator_id, -entry.amount_minor])
            .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
        ).toEqual(
          stored
            .map((part) => [part.creator_id, part.creator_minor])
            .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
        )
      }
      // The ledger balances; each creator holds exactly their parts of the lines they keep.
      for (const [currency, total] of await ledgerTotals(db())) expect(total, currency).toBe(0)
      for (const creatorId of everyone) {
        const expected = parts
          .filter((part) => part.creator_id === creatorId && !gone.has(part.order_item_id))
          .reduce((sum, part) => sum + part.creator_minor, 0)
        const balances = await creatorBalances(db(), creatorId)
        const held = balances.reduce((sum, balance) => sum + balance.pendingMinor + balance.availableMinor, 0)
        expect(held).toBe(expected)
        // The month's statement lines (everything happened now) sum to the same.
        const lines = await creatorEntriesOfMonth(db(), creatorId, monthOf(new Date()))
        expect(lines.reduce((sum, line) => sum + line.pendingMinor + line.availableMinor + line.paidOutMinor, 0)).toBe(
          held,
        )
        for (const balance of balances) expect(balance.pendingMinor).toBeGreaterThanOrEqual(0)
      }
    }),
    { numRuns: 12, seed: 1223 },
  )
})

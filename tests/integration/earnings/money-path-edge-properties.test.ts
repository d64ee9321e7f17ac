// The money path's edges under random runs, through the real webhook and the local fake Stripe (as
// money-path-properties.test.ts, which covers USD carts, refunds, hold release and payouts):
// - currencies: creators selling in USD and GBP (some courses in both), a cart per currency (with a bundle and a
//   creator's coupon or not), random line refunds; each share is in its order's currency and each creator's ledger,
//   balance and payouts per currency are exactly their parts of the lines they keep in it, never mixed;
// - gifts: a creator's course bought as a gift (USD or GBP), claimed or not, then kept, refunded by staff (its line,
//   the order, or the buyer's approved refund request), refunded in the Stripe dashboard, or disputed (lost or won):
//   the share is credited once, whatever gives it back reverses exactly what was credited, and a win takes nothing;
// - disputes: a paid cart (a platform course in it or not; Stripe's fee known at once or swept later), some lines
//   refunded first, the hold over or not, charge.dispute.created (or not: a 'closed' that overtook it) then
//   charge.dispute.closed lost (for the whole remaining payment) or won: a loss reverses the open lines' parts and
//   charges the chargeback fee over them by net (capped at what each line left its creators, once per dispute and
//   line); a win takes nothing.
// After every run: every split is stored once and reused (the sale and fee postings are the stored parts); every
// ledger transaction sums to zero per currency; each creator's balance per currency equals the sum of their parts;
// the payouts transfer exactly that, once, never a negative amount; and redelivered webhooks change nothing.
// MONEY_PROPERTY_RUNS=<n> runs each property n times (15 by default).
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { addCoInstructor } from '../../../src-server/creators/course-instructors.ts'
import { creatorBalances } from '../../../src-server/earnings/balances.ts'
import { allocateByNet } from '../../../src-server/earnings/processor-fees.ts'
import { releaseDueHolds } from '../../../src-server/earnings/shares.ts'
import { setCourseEarningShares } from '../../../src-server/flows/course-team-invites.ts'
import { payoutMonthOf, runPayouts } from '../../../src-server/flows/creator-payouts.ts'
import { settleDueProcessorFees } from '../../../src-server/flows/processor-fees.ts'
import { decideRefundRequest, refundOrder } from '../../../src-server/flows/refunds.ts'
import { stripeRefundGateway } from '../../../src-server/flows/stripe-refunds.ts'
import { allocate, type Currency } from '../../../src-shared/money.ts'
import { seedBundle } from '../../support/bundles.ts'
import { ownedCourse } from '../../support/earnings.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import {
  onboardedCreator,
  type PaymentsServer,
  sessionIdOf,
  startPaymentsServer,
} from '../../support/payments-server.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let admin: TestUser
let editor: Awaited<ReturnType<typeof callerAs>>
const db = () => shop.database.db
const DAY = 86_400_000
const numRuns = Number(process.env.MONEY_PROPERTY_RUNS ?? 15)
const CURRENCIES: Currency[] = ['USD', 'GBP']
let seq = 0
beforeAll(async () => {
  shop = await startPaymentsServer()
  admin = await createUser(db(), { role: 'admin' })
  editor = await callerAs(db(), await createUser(db(), { role: 'editor' }))
})
afterAll(() => shop.close())

const num = (value: number | string | bigint) => Number(value)
type Caller = Awaited<ReturnType<typeof shopCaller>>

/** The people of a run: creators and co-instructors, each with their Stripe account. */
class Run {
  people: TestUser[] = []
  accounts = new Map<string, string>()
  async creator() {
    const { creator, accountId } = await onboardedCreator(shop)
    this.people.push(creator)
    this.accounts.set(creator.id, accountId)
    return creator
  }
}

const teamArb = fc.constantFrom([], [3333], [1667, 3333], [5000], [1, 9998])
const priceArb = fc.integer({ min: 100, max: 30_000 })

/** A creator's course at these prices (null: not sold in that currency), with co-instructors at these basis points. */
async function teamCourse(run: Run, owner: TestUser, prices: Record<Currency, number | null>, team: readonly number[]) {
  const listCurrency: Currency = prices.USD !== null ? 'USD' : 'GBP'
  const course = await ownedCourse(db(), owner.id, prices[listCurrency]!)
  await db()
    .updateTable('courses')
    .set({ currency: listCurrency, price_usd_minor: prices.USD, price_gbp_minor: prices.GBP })
    .where('id', '=', course.id)
    .execute()
  if (team.length) {
    const shares: { userId: string; percent: number }[] = []
    for (const basisPoints of team) {
      const co = await run.creator()
      await addCoInstructor(db(), course.id, co.id)
      shares.push({ userId: co.id, percent: basisPoints / 100 })
    }
    const rest = 10_000 - team.reduce((sum, bp) => sum + bp, 0)
    await setCourseEarningShares(db(), owner.id, {
      courseId: course.id,
      shares: [{ userId: owner.id, percent: rest / 100 }, ...shares],
    })
  }
  return { ...course, prices }
}

/** A course of the platform's own (no owner, so no creator's share), sold in one currency. */
async function platformCourse(currency: Currency, priceMinor: number) {
  const category = await db().selectFrom('categories').select('id').executeTakeFirstOrThrow()
  seq += 1
  const id = `platform-course-${seq}-${Date.now().toString(36)}`
  await db()
    .insertInto('courses')
    .values({
      id,
      title: `Platform course ${seq}`,
      category_id: category.id,
      instructor_name: 'The House',
      price_minor: priceMinor,
      currency,
      price_usd_minor: currency === 'USD' ? priceMinor : null,
      price_gbp_minor: currency === 'GBP' ? priceMinor : null,
      what_you_will_learn: '[]',
      requirements: '[]',
      status: 'published',
      owner_id: null,
    })
    .execute()
  return { id, prices: { USD: null, GBP: null, [currency]: priceMinor } as Record<Currency, number | null> }
}

/** Counts of what the webhook may write: ledger postings and entries, shares, refunds, disputes, order states. */
async function footprint() {
  const count = async (table: 'ledger_transactions' | 'ledger_entries' | 'earning_shares' | 'refunds') =>
    num((await db().selectFrom(table).select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
  const parts = await db()
    .selectFrom('earning_share_parts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('creator_minor'), eb.lit(0)).as('n'))
    .executeTakeFirstOrThrow()
  const orders = await db().selectFrom('orders').select(['status', 'refunded_minor']).orderBy('id').execute()
  return {
    postings: await count('ledger_transactions'),
    entries: await count('ledger_entries'),
    shares: await count('earning_shares'),
    refunds: await count('refunds'),
    parts: num(parts.n),
    orders,
  }
}

/** POSTs a signed event to the webhook twice (the second: Stripe redelivering the same event); 200 expected. */
async function deliverTwice(type: string, object: unknown) {
  const signed = shop.fake.signedEvent(type, object)
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const response = await fetch(shop.fake.webhookUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
      body: signed.payload,
    })
    expect(response.status).toBe(200)
  }
}

/**
 * A checkout's session paid as Stripe does: checkout.session.completed delivered (and redelivered, the same event),
 * then a second event of the same session: the second and third deliveries change nothing.
 */
async function payByCard(url: string, options: { feeOutage?: boolean } = {}) {
  const session = shop.fake.completeSession(sessionIdOf(url))
  // An outage: each delivery's read of Stripe's fee fails (a redelivery of the same event reads nothing).
  if (options.feeOutage) shop.fake.failNextPaymentIntentRead()
  await deliverTwice('checkout.session.completed', session)
  const before = await footprint()
  if (options.feeOutage) shop.fake.failNextPaymentIntentRead()
  expect(await shop.fake.deliver('checkout.session.completed', session)).toBe(200)
  expect(await footprint()).toEqual(before)
}

/**
 * Stripe's fee on the order's payment was taken once: each creator line carries its part by net (the processor_fees
 * side of its posting), whoever pays it, and no share waits for it any more.
 */
async function expectProcessorFeeTaken(orderId: string) {
  const order = await orderOf(orderId)
  const lines = await linesOf(orderId)
  const parts = allocateByNet(
    shop.fake.connect.feeFor(order.captured_minor),
    lines.map((line) => ({ id: line.id, netMinor: paidOf(line) })),
  )
  const { shares } = await sharesOf(lines.map((line) => line.id))
  for (const share of shares) {
    const entries = await creatorEntries(`processor_fee:${share.order_item_id}`)
    const toStripe = entries.filter((entry) => entry.account === 'processor_fees')
    expect(toStripe.reduce((sum, entry) => sum + num(entry.amount_minor), 0)).toBe(parts.get(share.order_item_id) ?? 0)
  }
  const due = await db()
    .selectFrom('earning_shares')
    .select('order_item_id')
    .where('order_id', '=', orderId)
    .where('processor_fee_due', '=', true)
    .execute()
  expect(due).toEqual([])
}

async function orderOf(orderId: string) {
  return db()
    .selectFrom('orders')
    .select(['id', 'currency', 'captured_minor', 'refunded_minor', 'status', 'stripe_payment_intent_id'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()
}

async function linesOf(orderId: string) {
  return db()
    .selectFrom('order_items')
    .select(['id', 'course_id', 'unit_price_minor', 'discount_minor', 'refund_id'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
}
type Line = Awaited<ReturnType<typeof linesOf>>[number]
const paidOf = (line: Line) => line.unit_price_minor - line.discount_minor

async function sharesOf(lineIds: string[]) {
  if (lineIds.length === 0) return { shares: [], parts: [] }
  const shares = await db()
    .selectFrom('earning_shares')
    .select([
      'order_item_id',
      'order_id',
      'currency',
      'net_minor',
      'platform_fee_minor',
      'processor_fee_minor',
      'creator_minor',
    ])
    .where('order_item_id', 'in', lineIds)
    .execute()
  const parts = await db()
    .selectFrom('earning_share_parts')
    .select(['order_item_id', 'creator_id', 'creator_minor'])
    .where('order_item_id', 'in', lineIds)
    .orderBy('creator_id')
    .execute()
  return { shares, parts }
}

/** The creator entries of the postings with this key: [creator, account, amount], sorted, zeroes left out. */
async function creatorEntries(key: string) {
  const rows = await db()
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .select(['e.creator_id', 'e.account', 'e.currency', 'e.amount_minor'])
    .where('t.key', '=', key)
    .execute()
  return rows
}

/**
 * The order's lines and their stored splits: the lines' paid amounts sum to the capture, each creator line has one
 * share in the order's currency whose split sums to its net and whose parts sum to its creators' part; and the split is
 * reused: what the sale and the processor fee posted to each creator is exactly their stored part now.
 */
async function expectStoredSplits(orderId: string) {
  const order = await orderOf(orderId)
  const lines = await linesOf(orderId)
  expect(lines.reduce((sum, line) => sum + paidOf(line), 0)).toBe(order.captured_minor)
  const { shares, parts } = await sharesOf(lines.map((line) => line.id))
  for (const line of lines) {
    const share = shares.find((row) => row.order_item_id === line.id)
    const course = await db()
      .selectFrom('courses')
      .select('owner_id')
      .where('id', '=', line.course_id!)
      .executeTakeFirstOrThrow()
    // A line of the platform's own course, or one that took nothing, has no creator's share.
    if (paidOf(line) <= 0 || course.owner_id === null) {
      expect(share).toBeUndefined()
      continue
    }
    expect(share).toBeDefined()
    if (!share) continue
    expect(share.currency).toBe(order.currency)
    expect(share.order_id).toBe(orderId)
    expect(share.net_minor).toBe(paidOf(line))
    expect(share.platform_fee_minor + share.processor_fee_minor + share.creator_minor).toBe(share.net_minor)
    expect(share.creator_minor).toBeGreaterThanOrEqual(0)
    const mine = parts.filter((part) => part.order_item_id === line.id)
    expect(mine.reduce((sum, part) => sum + part.creator_minor, 0)).toBe(share.creator_minor)
    // Posted once, from the stored split: the sale credited the parts (before the fee) and the fee took its part.
    const posted = new Map<string, number>()
    for (const key of [`sale:${line.id}`, `processor_fee:${line.id}`]) {
      for (const entry of await creatorEntries(key)) {
        expect(entry.currency).toBe(order.currency)
        if (entry.creator_id)
          posted.set(entry.creator_id, (posted.get(entry.creator_id) ?? 0) + num(entry.amount_minor))
      }
    }
    for (const part of mine) expect(posted.get(part.creator_id) ?? 0).toBe(part.creator_minor)
    const sale = await db()
      .selectFrom('ledger_transactions')
      .select('id')
      .where('key', '=', `sale:${line.id}`)
      .execute()
    expect(sale).toHaveLength(1)
  }
  return { order, lines, shares, parts }
}

/** A line given back takes back exactly its stored parts (as the fee left them); a line kept, nothing. */
async function expectReversal(line: Line, givenBack: boolean) {
  const rows = (await creatorEntries(`reversal:${line.id}`)).filter((row) => row.creator_id !== null)
  if (!givenBack) {
    expect(rows).toEqual([])
    return
  }
  const { parts } = await sharesOf([line.id])
  const taken = rows
    .map((row) => [row.creator_id, -num(row.amount_minor)] as const)
    .filter(([, amount]) => amount !== 0)
    .sort()
  expect(taken).toEqual(
    parts
      .map((part) => [part.creator_id, part.creator_minor] as const)
      .filter(([, amount]) => amount !== 0)
      .sort(),
  )
}

/** Every ledger transaction sums to zero in each currency. */
async function expectLedgerBalanced() {
  const unbalanced = await db()
    .selectFrom('ledger_entries')
    .select(['transaction_id', 'currency', (eb) => eb.fn.sum<string>('amount_minor').as('total')])
    .groupBy(['transaction_id', 'currency'])
    .having(sql`sum(amount_minor)`, '!=', 0)
    .execute()
  expect(unbalanced).toEqual([])
}

/**
 * The holds end and the month is paid out (twice): each person holds, per currency, exactly `expected` (their parts
 * of the lines they keep, less chargeback fees), and is transferred what is owed beyond what an earlier month paid
 * them, when positive, once, in that currency; a negative balance is carried, never transferred.
 */
async function expectPaidOut(run: Run, expected: (personId: string, currency: Currency) => number) {
  await releaseDueHolds(db(), new Date(Date.now() + 31 * DAY))
  await expectLedgerBalanced()
  const paidBefore = new Map<string, number>()
  for (const person of run.people) {
    const balances = await creatorBalances(db(), person.id)
    for (const currency of CURRENCIES) {
      const balance = balances.find((row) => row.currency === currency)
      paidBefore.set(`${person.id}:${currency}`, balance?.paidOutMinor ?? 0)
      expect({
        currency,
        pending: balance?.pendingMinor ?? 0,
        total: (balance?.availableMinor ?? 0) + (balance?.paidOutMinor ?? 0),
      }).toEqual({ currency, pending: 0, total: expected(person.id, currency) })
    }
  }
  // Each run's people are new: their payout rows of this month are theirs alone.
  for (let again = 0; again < 2; again += 1) {
    await runPayouts(db(), shop.payments.stripe, { month: payoutMonthOf(new Date()), thresholdMinor: 1 })
  }
  await expectLedgerBalanced()
  for (const person of run.people) {
    const transfers = [...shop.fake.connect.transfers.values()].filter(
      (transfer) => transfer.destination === run.accounts.get(person.id),
    )
    const balances = await creatorBalances(db(), person.id)
    for (const currency of CURRENCIES) {
      const before = paidBefore.get(`${person.id}:${currency}`) ?? 0
      const owed = expected(person.id, currency) - before
      const sent = transfers.filter((transfer) => transfer.currency === currency.toLowerCase())
      for (const transfer of sent) expect(transfer.amount).toBeGreaterThan(0)
      expect(sent.reduce((sum, transfer) => sum + transfer.amount, 0)).toBe(before + Math.max(owed, 0))
      const balance = balances.find((row) => row.currency === currency)
      expect({ currency, available: balance?.availableMinor ?? 0, paidOut: balance?.paidOutMinor ?? 0 }).toEqual({
        currency,
        available: Math.min(owed, 0),
        paidOut: before + Math.max(owed, 0),
      })
    }
  }
}

/** A person's stored parts, per currency, of lines not in `givenBack`. */
async function keptParts(lineIds: string[], givenBack: ReadonlySet<string>) {
  const { shares, parts } = await sharesOf(lineIds)
  const currencyOf = new Map(shares.map((share) => [share.order_item_id, share.currency]))
  const kept = new Map<string, number>()
  for (const part of parts) {
    if (givenBack.has(part.order_item_id)) continue
    const key = `${part.creator_id}:${currencyOf.get(part.order_item_id)}`
    kept.set(key, (kept.get(key) ?? 0) + part.creator_minor)
  }
  return (personId: string, currency: Currency) => kept.get(`${personId}:${currency}`) ?? 0
}

const refund = (orderId: string, lineIds?: string[]) =>
  refundOrder(
    db(),
    { orderId, lineIds, actor: { id: admin.id, email: admin.email }, reason: 'property' },
    stripeRefundGateway(shop.payments.stripe!),
  )

/** A buyer's cart of these courses in `currency` (a bundle of the first two, a creator's percent coupon), started. */
async function checkout(
  courses: { id: string; prices: Record<Currency, number | null> }[],
  currency: Currency,
  options: { bundle: number | null; coupon: number | null },
) {
  const buyer = await createUser(db())
  const caller: Caller = await shopCaller(db(), buyer, shop.payments)
  const bundled = options.bundle !== null && courses.length >= 2 ? courses.slice(0, 2) : []
  if (bundled.length) {
    const list = bundled.reduce((sum, course) => sum + course.prices[currency]!, 0)
    const bundle = await seedBundle(db(), {
      courseIds: bundled.map((course) => course.id),
      priceMinor: Math.max(1, Math.floor((list * (options.bundle ?? 100)) / 100)),
      currency,
    })
    await caller.cart.add({ kind: 'bundle', bundleId: bundle.id })
  }
  for (const course of courses.slice(bundled.length))
    await caller.cart.add({ kind: 'course', courseId: course.id, currency })
  if (options.coupon !== null && courses.length > bundled.length) {
    seq += 1
    const code = `EDGE${seq}X${Date.now().toString(36).toUpperCase()}`
    await editor.admin.coupons.create({
      code,
      kind: 'percent',
      percentOff: options.coupon,
      appliesTo: 'courses',
      courseIds: courses.map((course) => course.id),
    } as never)
    await caller.cart.applyCoupon({ code })
  }
  const started = await caller.payments.start({ currency, method: 'card' })
  if (started.method !== 'card') throw new Error(`expected a card checkout, got ${started.method}`)
  return started
}

const pricesArb = fc
  .record({ USD: fc.option(priceArb, { nil: null }), GBP: fc.option(priceArb, { nil: null }) })
  .filter((prices) => prices.USD !== null || prices.GBP !== null)

it('USD and GBP: each creator’s shares, ledger and payouts per currency, never mixed', async () => {
  const courseArb = fc.record({
    owner: fc.nat(1),
    prices: pricesArb,
    team: teamArb,
    /** Whether each currency's buyer takes it (when it is sold in that currency). */
    take: fc.tuple(fc.boolean(), fc.boolean()),
  })
  const runArb = fc.record({
    courses: fc.array(courseArb, { minLength: 1, maxLength: 4 }),
    bundle: fc.option(fc.integer({ min: 50, max: 95 }), { nil: null }),
    coupon: fc.option(fc.integer({ min: 1, max: 99 }), { nil: null }),
    /** Refunds: [currency index, line indexes] (lines refunded before are sent again). */
    refunds: fc.array(fc.tuple(fc.nat(1), fc.uniqueArray(fc.nat(5), { minLength: 1, maxLength: 3 })), {
      maxLength: 4,
    }),
  })
  await fc.assert(
    fc.asyncProperty(runArb, async (spec) => {
      const run = new Run()
      const owners = [await run.creator(), await run.creator()]
      const courses = []
      for (const course of spec.courses)
        courses.push({
          ...(await teamCourse(run, owners[course.owner]!, course.prices, course.team)),
          take: course.take,
        })
      const orders: string[] = []
      for (const [index, currency] of CURRENCIES.entries()) {
        const cart = courses.filter((course) => course.prices[currency] !== null && course.take[index])
        if (cart.length === 0) continue
        const started = await checkout(cart, currency, spec)
        await payByCard(started.url)
        const { order, lines } = await expectStoredSplits(started.orderId)
        expect(order.currency).toBe(currency)
        expect(lines).toHaveLength(cart.length)
        orders.push(started.orderId)
      }
      if (orders.length === 0) return
      const givenBack = new Set<string>()
      for (const [which, indexes] of spec.refunds) {
        const orderId = orders[which % orders.length]!
        const lines = await linesOf(orderId)
        const chosen = [...new Set(indexes.map((index) => lines[index % lines.length]!.id))]
        const fresh = chosen.filter((id) => !givenBack.has(id))
        if (fresh.length < chosen.length)
          await expect(refund(orderId, chosen)).rejects.toThrow(/already been refunded|Only a paid order/)
        if (fresh.length) await refund(orderId, fresh)
        for (const id of fresh) givenBack.add(id)
      }
      const allLines: Line[] = []
      for (const orderId of orders) {
        const order = await orderOf(orderId)
        expect(order.refunded_minor).toBeLessThanOrEqual(order.captured_minor)
        const { lines } = await expectStoredSplits(orderId)
        await expectProcessorFeeTaken(orderId)
        for (const line of lines) await expectReversal(line, givenBack.has(line.id))
        allLines.push(...lines)
      }
      await expectLedgerBalanced()
      const kept = await keptParts(
        allLines.map((line) => line.id),
        givenBack,
      )
      await expectPaidOut(run, kept)
    }),
    { numRuns, endOnFailure: true },
  )
}, 600_000)

it('a gift of a creator’s course: its share credited once; a refund or lost dispute reverses exactly it, a win nothing', async () => {
  const runArb = fc.record({
    prices: pricesArb,
    team: teamArb,
    currency: fc.constantFrom<Currency>('USD', 'GBP'),
    claim: fc.boolean(),
    end: fc.constantFrom('kept', 'line', 'order', 'twice', 'request', 'dashboard', 'dispute', 'won'),
  })
  await fc.assert(
    fc.asyncProperty(runArb, async (spec) => {
      const run = new Run()
      const owner = await run.creator()
      const course = await teamCourse(run, owner, spec.prices, spec.team)
      const buyer = await createUser(db())
      const caller: Caller = await shopCaller(db(), buyer, shop.payments)
      const recipientEmail = `gift-${++seq}-${Date.now()}@example.com`
      const started = await caller.gifts.checkout({
        courseId: course.id,
        recipientEmail,
        message: 'For you',
        currency: spec.currency,
        method: 'card',
      })
      if (started.method !== 'card') throw new Error(`expected a card checkout, got ${started.method}`)
      const paidIn: Currency =
        course.prices[spec.currency] !== null ? spec.currency : course.prices.USD !== null ? 'USD' : 'GBP'
      expect(started).toMatchObject({ currency: paidIn, totalMinor: course.prices[paidIn] })
      await payByCard(started.url)
      const { order, lines, shares } = await expectStoredSplits(started.orderId)
      expect(lines).toHaveLength(1)
      expect(shares).toHaveLength(1)
      const line = lines[0]!
      if (spec.claim) {
        const mail = await db()
          .selectFrom('mail_outbox')
          .select('text_body')
          .where('to_address', '=', recipientEmail)
          .where('kind', '=', 'gift')
          .executeTakeFirstOrThrow()
        const token = /\/gifts\/claim\?token=([a-z2-7]+)/.exec(mail.text_body)![1]!
        const recipient = await createUser(db())
        const before = await footprint()
        await (await shopCaller(db(), recipient, shop.payments)).gifts.claim({ token })
        // Claiming credits nothing more.
        expect(await footprint()).toEqual(before)
      }
      const intent = order.stripe_payment_intent_id!
      if (spec.end === 'line') await refund(order.id, [line.id])
      if (spec.end === 'order') await refund(order.id)
      if (spec.end === 'twice') {
        await refund(order.id, [line.id])
        await expect(refund(order.id, [line.id])).rejects.toThrow(/already been refunded|Only a paid order/)
      }
      if (spec.end === 'dashboard') {
        shop.fake.dashboardRefund(intent, order.captured_minor)
        await deliverTwice('charge.refunded', shop.fake.chargeOf(intent))
      }
      if (spec.end === 'request') {
        // The gift's buyer asks for their money back; staff approve: refunded as any staff refund of the line.
        await (await shopCaller(db(), buyer, shop.payments)).purchases.requestRefund({
          lineId: line.id,
          reason: 'Bought the wrong course',
        })
        const request = await db()
          .selectFrom('refund_requests')
          .select('id')
          .where('order_item_id', '=', line.id)
          .executeTakeFirstOrThrow()
        await decideRefundRequest(
          db(),
          request.id,
          { decision: 'approve' },
          { id: admin.id, email: admin.email },
          stripeRefundGateway(shop.payments.stripe!),
        )
      }
      if (spec.end === 'dispute' || spec.end === 'won') {
        const disputeId = `dp_gift_${++seq}`
        await deliverTwice(
          'charge.dispute.created',
          shop.fake.disputeOf(intent, 'needs_response', order.captured_minor, { id: disputeId }),
        )
        await deliverTwice(
          'charge.dispute.closed',
          shop.fake.disputeOf(intent, spec.end === 'won' ? 'won' : 'lost', order.captured_minor, { id: disputeId }),
        )
        expect((await orderOf(order.id)).status).toBe(spec.end === 'won' ? 'paid' : 'disputed')
      }
      const givenBack = spec.end !== 'kept' && spec.end !== 'won'
      const after = await expectStoredSplits(order.id)
      await expectReversal(line, givenBack)
      const reversals = await db()
        .selectFrom('ledger_transactions')
        .select('id')
        .where('key', '=', `reversal:${line.id}`)
        .execute()
      expect(reversals).toHaveLength(givenBack ? 1 : 0)
      expect((await orderOf(order.id)).refunded_minor).toBe(givenBack ? order.captured_minor : 0)
      // A lost dispute's fee (15.00) is the line's alone, capped at what the line left its creators.
      const chargeback = new Map<string, number>()
      if (spec.end === 'dispute') {
        const fee = [...(await chargebackEntries(line.id))]
        const share = after.shares[0]!
        const charged = Math.min(1500, share.creator_minor)
        expect(fee.filter((e) => e.account === 'processor_fees').map((e) => num(e.amount_minor))).toEqual([1500])
        const split = allocate(
          charged,
          after.parts.map((part) => part.creator_minor),
        )
        for (const [index, part] of after.parts.entries()) chargeback.set(part.creator_id, split[index]!)
        for (const entry of fee.filter((e) => e.creator_id)) {
          expect(entry.account).toBe('creator_available')
          expect(-num(entry.amount_minor)).toBe(chargeback.get(entry.creator_id!))
        }
      } else {
        // Refunds and a won dispute charge no chargeback fee.
        expect(await chargebackEntries(line.id)).toEqual([])
      }
      await expectProcessorFeeTaken(order.id)
      await expectLedgerBalanced()
      const kept = await keptParts([line.id], givenBack ? new Set([line.id]) : new Set())
      await expectPaidOut(run, (person, currency) => {
        return kept(person, currency) - (currency === paidIn ? (chargeback.get(person) ?? 0) : 0)
      })
    }),
    { numRuns, endOnFailure: true },
  )
}, 600_000)

/** The entries of every chargeback fee posting of the line. */
function chargebackEntries(lineId: string) {
  return db()
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .select(['t.key', 'e.creator_id', 'e.account', 'e.currency', 'e.amount_minor'])
    .where('t.key', 'like', `chargeback_fee:${lineId}:%`)
    .execute()
}

it('a dispute lost for the whole remaining payment reverses the open lines and charges its fee once; won, nothing', async () => {
  const courseArb = fc.record({ price: priceArb, team: teamArb, owner: fc.nat(2) })
  const runArb = fc.record({
    currency: fc.constantFrom<Currency>('USD', 'GBP'),
    courses: fc.array(courseArb, { minLength: 1, maxLength: 4 }),
    coupon: fc.option(fc.integer({ min: 1, max: 99 }), { nil: null }),
    /** Lines refunded by staff before the dispute (indexes). */
    refunded: fc.uniqueArray(fc.nat(5), { maxLength: 2 }),
    /** The dispute comes after the refund window (the shares are available) or within it. */
    afterHold: fc.boolean(),
    lost: fc.boolean(),
    fee: fc.constantFrom(1500, 1, 4000),
    /** charge.dispute.created comes first, or never (a 'closed' that overtook it). */
    created: fc.boolean(),
    /** Stripe could not answer for its processing fee at the sale: the sweep takes it after the dispute. */
    feeOutage: fc.boolean(),
    /** A course of the platform's own in the cart too (its part of the fee is the platform's). */
    platformLine: fc.option(priceArb, { nil: null }),
    /** The dispute's amount: what is left of the payment, or the whole capture (capped at what is left). */
    disputesCapture: fc.boolean(),
    /** After the hold, the month's payouts ran before the dispute. */
    paidOutFirst: fc.boolean(),
  })
  await fc.assert(
    fc.asyncProperty(runArb, async (spec) => {
      const run = new Run()
      const owners = [await run.creator(), await run.creator(), await run.creator()]
      const courses = []
      for (const course of spec.courses) {
        const prices = { USD: null, GBP: null, [spec.currency]: course.price } as Record<Currency, number | null>
        courses.push(await teamCourse(run, owners[course.owner]!, prices, course.team))
      }
      const cart =
        spec.platformLine === null ? courses : [...courses, await platformCourse(spec.currency, spec.platformLine)]
      const started = await checkout(cart, spec.currency, { bundle: null, coupon: spec.coupon })
      await payByCard(started.url, { feeOutage: spec.feeOutage })
      const paid = await expectStoredSplits(started.orderId)
      const orderId = paid.order.id
      expect(paid.lines).toHaveLength(cart.length)
      const refundedIds = [...new Set(spec.refunded.map((index) => paid.lines[index % paid.lines.length]!.id))]
      if (refundedIds.length) await refund(orderId, refundedIds)
      if (spec.afterHold) await releaseDueHolds(db(), new Date(Date.now() + 31 * DAY))
      // The creators were paid out before the dispute (last month's run): what it takes back is carried as owed.
      if (spec.afterHold && spec.paidOutFirst)
        await runPayouts(db(), shop.payments.stripe, {
          month: payoutMonthOf(new Date(Date.now() - 31 * DAY)),
          thresholdMinor: 1,
        })
      const before = await orderOf(orderId)
      const open = (await linesOf(orderId)).filter((line) => !line.refund_id)
      const left = before.captured_minor - before.refunded_minor
      const intent = before.stripe_payment_intent_id!
      const disputeId = `dp_prop_${++seq}`
      // The fee is the dispute's from its start (the fake keeps its first balance transaction per dispute).
      const dispute = { id: disputeId, fee: spec.fee }
      const amount = spec.disputesCapture ? before.captured_minor : left
      if (spec.created) {
        await deliverTwice('charge.dispute.created', shop.fake.disputeOf(intent, 'needs_response', amount, dispute))
        if (left > 0) expect((await orderOf(orderId)).status).toBe('disputed')
      }
      const closed = shop.fake.disputeOf(intent, spec.lost ? 'lost' : 'won', amount, dispute)
      await deliverTwice('charge.dispute.closed', closed)
      // The fee Stripe could not report at the sale is swept now (a line the dispute reversed carries none of it).
      if (spec.feeOutage) await settleDueProcessorFees(db(), shop.payments.stripe, new Date())
      const settled = await footprint()
      // Redelivered as new events (the same dispute): nothing changes.
      expect(await shop.fake.deliver('charge.dispute.closed', closed)).toBe(200)
      expect(
        await shop.fake.deliver(
          'charge.dispute.created',
          shop.fake.disputeOf(intent, 'needs_response', amount, dispute),
        ),
      ).toBe(200)
      expect(await footprint()).toEqual(settled)

      const after = await expectStoredSplits(orderId)
      await expectProcessorFeeTaken(orderId)
      const lostLines = new Set(spec.lost && left > 0 ? open.map((line) => line.id) : [])
      const givenBack = new Set([...refundedIds, ...lostLines])
      for (const line of after.lines) await expectReversal(line, givenBack.has(line.id))
      expect((await orderOf(orderId)).refunded_minor).toBe(spec.lost ? before.captured_minor : before.refunded_minor)

      // The chargeback fee: over the open lines by net, each line's part posted once (to processor_fees), its
      // creators charged at most what the line left them (split by their parts), the platform the rest.
      const expectedParts = allocateByNet(
        spec.fee,
        open.map((line) => ({ id: line.id, netMinor: paidOf(line) })),
      )
      const chargeback = new Map<string, number>()
      for (const line of after.lines) {
        const entries = await chargebackEntries(line.id)
        const share = after.shares.find((row) => row.order_item_id === line.id)
        // Not lost, no part of the fee, or the platform's own line (its part stays off the ledger): nothing posted.
        if (!lostLines.has(line.id) || !expectedParts.get(line.id) || !share) {
          expect(entries).toEqual([])
          continue
        }
        const part = expectedParts.get(line.id)!
        expect(new Set(entries.map((entry) => entry.key))).toEqual(new Set([`chargeback_fee:${line.id}:${disputeId}`]))
        const charged = Math.min(part, share.creator_minor)
        const parts = after.parts.filter((row) => row.order_item_id === line.id)
        const split = allocate(
          charged,
          parts.map((row) => row.creator_minor),
        )
        const byAccount = (account: string) =>
          entries.filter((entry) => entry.account === account).reduce((sum, entry) => sum + num(entry.amount_minor), 0)
        expect({ processor: byAccount('processor_fees'), platform: byAccount('platform_fees') }).toEqual({
          processor: part,
          platform: charged - part,
        })
        for (const entry of entries) expect(entry.currency).toBe(spec.currency)
        for (const [index, row] of parts.entries()) {
          const mine = entries.filter((entry) => entry.creator_id === row.creator_id)
          expect(mine.every((entry) => entry.account === 'creator_available')).toBe(true)
          expect(0 - mine.reduce((sum, entry) => sum + num(entry.amount_minor), 0)).toBe(split[index])
          chargeback.set(row.creator_id, (chargeback.get(row.creator_id) ?? 0) + split[index]!)
        }
      }
      if (lostLines.size && [...lostLines].every((id) => after.shares.some((share) => share.order_item_id === id))) {
        // Every open line is a creator's: the fee's parts are all posted and sum to the fee.
        const posted = await db()
          .selectFrom('ledger_entries as e')
          .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
          .select((eb) => eb.fn.sum<string>('e.amount_minor').as('total'))
          .where('t.key', 'like', `chargeback_fee:%:${disputeId}`)
          .where('e.account', '=', 'processor_fees')
          .executeTakeFirstOrThrow()
        expect(num(posted.total ?? 0)).toBe(spec.fee)
      }
      await expectLedgerBalanced()
      const kept = await keptParts(
        after.lines.map((line) => line.id),
        givenBack,
      )
      await expectPaidOut(
        run,
        (person, currency) => kept(person, currency) - (currency === spec.currency ? (chargeback.get(person) ?? 0) : 0),
      )
    }),
    { numRuns, endOnFailure: true },
  )
}, 600_000)

// Coupons on membership plans (issue 32, decision 0050): staff make a plan code with a Stripe duration; the plan's
// checkout carries it to Stripe as a coupon of the stored share; Stripe's invoices (the fake's test clock) take it
// off the first payment only (`once`), N months (`repeating`) or every renewal (`forever`), and the shop's invoices
// show those amounts month by month. Limits work as for courses; hostile input is refused with a reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { TRIAL_DAYS } from '../../../src-shared/constants.ts'
import { COUPON_MESSAGES, COUPON_REFUSALS } from '../../../src-shared/promotions.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
const db = () => shop.database.db
const DAY = 86_400
const BASIC_MONTHLY = 999

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
})
afterAll(() => shop.close())

let seq = 0
const newCode = () => `PLAN${Date.now().toString(36).toUpperCase()}${seq++}`
const staff = async () => callerAs(db(), await createUser(db(), { role: 'editor' }))

async function planCoupon(input: Record<string, unknown>) {
  const code = newCode()
  await (await staff()).admin.coupons.create({
    code,
    kind: 'percent',
    percentOff: 50,
    appliesTo: 'plans',
    ...input,
  } as never)
  return code
}

/** A buyer subscribes to Basic monthly by card with the code; Stripe's checkout and its events delivered. */
async function subscribeWith(code: string, user?: TestUser) {
  const member = user ?? (await createUser(db()))
  const caller = await shopCaller(db(), member, payments)
  await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
  await caller.cart.applyCoupon({ code })
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected card')
  const sessionId = new URL(started.url).pathname.split('/').pop()!
  const session = fake.completeSession(sessionId)
  expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
  await fake.flush()
  return { member, caller, started, session, params: fake.createParams.get(sessionId)! }
}

/** The shop's numbered invoices of the member, oldest first: the checkout's, then one per paid renewal. */
const invoiceTotals = async (userId: string) =>
  (
    await db()
      .selectFrom('invoices')
      .select(['total_minor', 'lines', 'issued_at'])
      .where('user_id', '=', userId)
      .orderBy('issued_at')
      .orderBy('number')
      .execute()
  ).map((row) => row.total_minor)

/** Each renewal a month apart (the fake's test clock moves Stripe's billing forward and sends its events). */
async function renewMonths(count: number) {
  for (let month = 0; month < count; month++) await fake.advance(31 * DAY)
}

describe('plan coupons across renewals', () => {
  it('`once`: the first payment only; the free trial is not stacked with it', async () => {
    const code = await planCoupon({ planDuration: 'once' })
    const { member, started, session, params } = await subscribeWith(code)
    // 50 % of 9.99 rounded half up: 5.00 off; the plan is priced in full and the Stripe coupon carries the share.
    expect(started.totalMinor).toBe(BASIC_MONTHLY - 500)
    expect(params.line_items[0].price_data.unit_amount).toBe(String(BASIC_MONTHLY))
    expect(params.subscription_data.trial_period_days).toBeUndefined()
    const coupon = fake.billing.coupons.get(params.discounts[0].coupon)!
    expect(coupon).toMatchObject({ amount_off: 500, currency: 'usd', duration: 'once', duration_in_months: null })
    expect(session.amount_total).toBe(BASIC_MONTHLY - 500)
    const sub = fake.billing.subscriptions.get(session.subscription!)!
    expect(sub.status).toBe('active')
    await renewMonths(2)
    expect(await invoiceTotals(member.id)).toEqual([BASIC_MONTHLY - 500, BASIC_MONTHLY, BASIC_MONTHLY])
    const stripeInvoices = fake.billing
      .invoicesOf(sub.customer)
      .filter((inv) => inv.parent.subscription_details.subscription === sub.id)
    expect(stripeInvoices.map((inv) => inv.total_discount_amounts.reduce((s, d) => s + d.amount, 0))).toEqual([
      500, 0, 0,
    ])
  })

  it('tells the payment page what the card checkout does with the free trial, as the checkout then does', async () => {
    const member = await createUser(db())
    const caller = await shopCaller(db(), member, payments)
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    const planTrial = async () => (await caller.cart.list())?.totals.find((t) => t.currency === 'USD')?.planTrial
    // Never a member, no code: the trial starts and the plan's price waits for its end.
    expect(await planTrial()).toEqual({ planTitle: 'Basic Plan', planPriceMinor: BASIC_MONTHLY, startsWithTrial: true })
    // A code on the plan takes the trial's place, at the price after the code.
    await caller.cart.applyCoupon({ code: await planCoupon({ planDuration: 'once' }) })
    expect(await planTrial()).toEqual({
      planTitle: 'Basic Plan',
      planPriceMinor: BASIC_MONTHLY - 500,
      startsWithTrial: false,
    })
    await caller.cart.removeCoupon()
    expect((await planTrial())?.startsWithTrial).toBe(true)
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const sessionId = new URL(started.url).pathname.split('/').pop()!
    expect(fake.createParams.get(sessionId)!.subscription_data.trial_period_days).toBe(String(TRIAL_DAYS))
    expect(await fake.deliver('checkout.session.completed', fake.completeSession(sessionId))).toBe(200)
    await fake.flush()

    // Once a member (here, the plan ended since), a plan in the cart has no trial to speak of.
    await db().updateTable('subscriptions').set({ status: 'cancelled' }).where('user_id', '=', member.id).execute()
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    expect(await planTrial()).toBeNull()
  })

  it('`repeating` 3 months: three discounted payments, then the full price; the invoice says so', async () => {
    const code = await planCoupon({
      kind: 'fixed',
      percentOff: null,
      amountsOff: { USD: 300 },
      planDuration: 'repeating',
      planDurationMonths: 3,
    })
    const { member, params } = await subscribeWith(code)
    expect(fake.billing.coupons.get(params.discounts[0].coupon)).toMatchObject({
      amount_off: 300,
      duration: 'repeating',
      duration_in_months: 3,
    })
    await renewMonths(4)
    expect(await invoiceTotals(member.id)).toEqual([699, 699, 699, BASIC_MONTHLY, BASIC_MONTHLY])
    const renewal = await db()
      .selectFrom('invoices')
      .select('lines')
      .where('user_id', '=', member.id)
      .where('stripe_invoice_id', 'is not', null)
      .orderBy('issued_at')
      .executeTakeFirstOrThrow()
    expect(JSON.stringify(renewal.lines)).toContain('after a discount of $3.00')
  })

  it('`forever`: every renewal', async () => {
    const code = await planCoupon({ percentOff: 20, planDuration: 'forever' })
    const { member } = await subscribeWith(code)
    await renewMonths(3)
    expect(await invoiceTotals(member.id)).toEqual([799, 799, 799, 799])
  })
})

describe('plan coupons: scope and limits as for courses', () => {
  it('a plan code covers no course, a store-wide course code no plan', async () => {
    const code = await planCoupon({ planDuration: 'once' })
    const buyer = await shopCaller(db(), await createUser(db()), payments)
    const [course] = await db().selectFrom('courses').select('id').where('price_minor', '>', 0).limit(1).execute()
    await buyer.cart.add({ kind: 'course', courseId: course!.id })
    await expect(buyer.cart.applyCoupon({ code })).rejects.toThrow(COUPON_REFUSALS.nothingApplies)

    const store = newCode()
    await (await staff()).admin.coupons.create({
      code: store,
      kind: 'percent',
      percentOff: 10,
      appliesTo: 'everything',
    })
    const member = await shopCaller(db(), await createUser(db()), payments)
    await member.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    await expect(member.cart.applyCoupon({ code: store })).rejects.toThrow(COUPON_REFUSALS.nothingApplies)
  })

  it('a limit of one: the second buyer is told it is used up', async () => {
    const code = await planCoupon({ planDuration: 'forever', maxUses: 1 })
    await subscribeWith(code)
    const second = await shopCaller(db(), await createUser(db()), payments)
    await second.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    await expect(second.cart.applyCoupon({ code })).rejects.toThrow(COUPON_REFUSALS.usedUp)
  })
})

describe('making plan coupons', () => {
  it('refuses hostile input with a clear reason', async () => {
    const editor = await staff()
    const refusal = (input: Record<string, unknown>) =>
      editor.admin.coupons
        .create({
          code: newCode(),
          kind: 'percent',
          percentOff: 20,
          appliesTo: 'plans',
          planDuration: 'once',
          ...input,
        } as never)
        .then(
          () => 'accepted',
          (error: Error) => error.message,
        )
    expect(await refusal({ percentOff: -5 })).toContain('between 1 and 100')
    expect(await refusal({ percentOff: 101 })).toContain('between 1 and 100')
    expect(await refusal({ kind: 'fixed', percentOff: null, amountsOff: { USD: 1_500 } })).toContain(
      COUPON_MESSAGES.fixedAbovePlanPrice,
    )
    expect(await refusal({ planDuration: null })).toContain(COUPON_MESSAGES.planDurationRequired)
    expect(await refusal({ planDuration: 'weekly' })).toContain(COUPON_MESSAGES.planDurationRequired)
    expect(await refusal({ planDuration: 'repeating' })).toContain(COUPON_MESSAGES.planDurationMonths)
    expect(await refusal({ planDuration: 'repeating', planDurationMonths: 0 })).toContain(
      COUPON_MESSAGES.planDurationMonths,
    )
    expect(await refusal({ planDuration: 'repeating', planDurationMonths: 37 })).toContain(
      COUPON_MESSAGES.planDurationMonths,
    )
    expect(await refusal({ planDuration: 'repeating', planDurationMonths: 1.5 })).toContain(
      COUPON_MESSAGES.planDurationMonths,
    )
    expect(await refusal({ planDuration: 'once', planDurationMonths: 3 })).toContain(COUPON_MESSAGES.planDurationMonths)
    expect(await refusal({ appliesTo: 'everything' })).toContain(COUPON_MESSAGES.planDurationOnlyForPlans)
    expect(await refusal({ planDuration: 'repeating', planDurationMonths: 6 })).toBe('accepted')
  })

  it('creators cannot discount plans', async () => {
    const creator = await createUser(db())
    const studio = await callerAs(db(), creator)
    await expect(
      studio.studioCoupons.create({
        code: newCode(),
        kind: 'percent',
        percentOff: 20,
        appliesTo: 'plans',
        planDuration: 'once',
      }),
    ).rejects.toThrow()
  })
})

// The money and access rules of checkout (issue 19), each on its own: which rails the settings offer, the plan rule
// per currency, the success page paying a session exactly once, Resume/Cancel/staff Cancel and the 24 h expiry when
// Stripe answers oddly or not at all, and the exact bank details e-mailed and shown per currency.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  CHECKOUT_LIFETIME_MS,
  cancelOrderByStaff,
  expireAbandonedCheckouts,
} from '../../../src-server/flows/abandoned-checkouts.ts'
import { startCheckout } from '../../../src-server/flows/start-checkout.ts'
import { readEnv } from '../../../src-server/kernel/env.ts'
import { defaultPayments, type PaymentsConfig, paymentsFromEnv } from '../../../src-server/payments/config.ts'
import type { StripeApi } from '../../../src-server/payments/stripe.ts'
import { createMemoryLimiter } from '../../../src-server/security/rate-limit.ts'
import { formatDate } from '../../../src-shared/dates.ts'
import { trialStartedText } from '../../../src-shared/membership.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { buyerWhoHadAPlan, publishedCourse, servicePackage, shopCaller, sterlingPlan } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
})
afterAll(() => shop.close())

const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!
const statusOf = async (orderId: string) =>
  (await db().selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status
const ordersOf = (userId: string) =>
  db().selectFrom('orders').select(['id', 'status']).where('user_id', '=', userId).orderBy('created_at').execute()
const down = () => Promise.reject(new Error('connect ECONNREFUSED'))
/** The store's Stripe with some calls replaced (an outage, an odd answer). */
const stripeWith = (overrides: Partial<StripeApi>): StripeApi => ({ ...payments.stripe!, ...overrides })
const admin = async () => createUser(db(), { role: 'admin' })
const actorOf = (user: TestUser) => ({ id: user.id, email: user.email })

async function shopper(offset: number, config: PaymentsConfig = payments) {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user, config)
  const course = await publishedCourse(db(), offset)
  await caller.cart.add({ kind: 'course', courseId: course.id })
  return { user, caller, course }
}

async function cardCheckout(offset: number) {
  const { user, caller, course } = await shopper(offset)
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected card')
  return { user, caller, course, started, sessionId: sessionIdOf(started.url) }
}

describe('which rails the settings offer', () => {
  it('payments.options: card with a Stripe key, PayPal with a PayPal.me link, neither without', async () => {
    const user = await createUser(db())
    expect(await (await shopCaller(db(), user, payments)).payments.options()).toEqual({
      card: true,
      paypal: true,
      paypalButtons: [],
    })
    expect(await (await shopCaller(db(), user)).payments.options()).toEqual({
      card: false,
      paypal: false,
      paypalButtons: [],
    })
  })

  it('refuses PayPal when no PayPal.me link is set, and still takes a bank transfer', async () => {
    const { user, caller } = await shopper(0, { ...payments, paypalMeUrl: null })
    await expect(caller.payments.start({ currency: 'USD', method: 'paypal' })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'PayPal payments are not configured on this store yet.',
    })
    expect(await ordersOf(user.id)).toEqual([])
    const bank = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    expect(bank.method).toBe('bank_transfer')
  })

  it('paymentsFromEnv: Stripe from STRIPE_SECRET_KEY/STRIPE_API_URL, webhook secret and PayPal link or null', async () => {
    const off = paymentsFromEnv(readEnv({}))
    expect(off).toMatchObject({ stripe: null, stripeWebhookSecret: null, paypalMeUrl: null, stripeTax: false })
    const on = paymentsFromEnv(
      readEnv({
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_API_URL: fake.url,
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        PAYPAL_ME_URL: 'https://paypal.me/shop',
      }),
    )
    expect(on).toMatchObject({ stripeWebhookSecret: 'whsec_x', paypalMeUrl: 'https://paypal.me/shop' })
    // The client talks to the configured API with the configured key.
    const { sessionId, started } = await cardCheckout(1)
    const session = await on.stripe!.retrieveCheckoutSession(sessionId)
    expect(session.id).toBe(sessionId)
    expect(session.client_reference_id).toBe(started.orderId)
  })

  it('defaultPayments: no card, no PayPal, no tax, the demo bank account', () => {
    expect(defaultPayments).toEqual({
      stripe: null,
      stripeWebhookSecret: null,
      stripeTax: false,
      paypalMeUrl: null,
      bank: {
        bankName: 'Barclays Bank PLC',
        accountName: 'SkillForge Ltd',
        accountNumber: '12345678',
        sortCode: '20-00-00',
        routingNumber: '026009593',
        swiftCode: 'BARCGB22',
      },
      referencePrefix: 'SF',
    })
  })
})

describe('starting a checkout', () => {
  it('refuses a plan only in the currency that holds it when the buyer already has a live plan', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    await caller.cart.add({ kind: 'course', courseId: (await publishedCourse(db(), 2)).id })
    await caller.cart.add({
      kind: 'service_package',
      packageId: (await servicePackage(db(), 'uk-company-formation', 'Standard')).id,
    })
    await db()
      .insertInto('subscriptions')
      .values({ user_id: user.id, plan_id: 'pro', billing_cycle: 'monthly', status: 'active' })
      .execute()
    await expect(caller.payments.start({ currency: 'USD', method: 'bank_transfer' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'You already have a live plan. Use Change plan on the pricing page instead of buying another.',
    })
    // The GBP group holds no plan: it checks out.
    const gbp = await caller.payments.start({ currency: 'GBP', method: 'bank_transfer' })
    expect(gbp).toMatchObject({ method: 'bank_transfer', currency: 'GBP', totalMinor: 30_000 })
  })

  it('one free trial per user: a buyer who had a plan gets no trial_period_days', async () => {
    const user = await buyerWhoHadAPlan(db())
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const params = fake.createParams.get(sessionIdOf(started.url))!
    expect(params.subscription_data).not.toHaveProperty('trial_period_days')
    expect(params.subscription_data).toMatchObject({ metadata: { orderId: started.orderId } })
    expect(params.automatic_tax).toBeUndefined()
  })

  it('e-mails bank details for a bank transfer only, never for a card order', async () => {
    const { user } = await cardCheckout(3)
    const mails = await db().selectFrom('mail_outbox').select('kind').where('to_address', '=', user.email).execute()
    expect(mails.filter((mail) => mail.kind === 'bank_transfer_details')).toEqual([])
  })

  it('a Stripe session without a payment page: the order fails and the buyer is told', async () => {
    const config = {
      ...payments,
      stripe: stripeWith({
        createCheckoutSession: async (...args) => ({
          ...(await payments.stripe!.createCheckoutSession(...args)),
          url: null,
        }),
      }),
    }
    const { user, caller } = await shopper(4, config)
    await expect(caller.payments.start({ currency: 'USD', method: 'card' })).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
      message: 'No checkout URL received',
    })
    expect((await ordersOf(user.id)).map((order) => order.status)).toEqual(['failed'])
  })

  it('opens each order’s Stripe page under that order’s idempotency key, so a retry never opens a second one', async () => {
    const first = await cardCheckout(6)
    const second = await cardCheckout(7)
    expect(fake.sessionKeys.get(first.sessionId)).toBe(`order-${first.started.orderId}`)
    expect(fake.sessionKeys.get(second.sessionId)).toBe(`order-${second.started.orderId}`)
    expect(second.sessionId).not.toBe(first.sessionId)
  })

  it('counts checkout attempts per buyer: one buyer at the limit does not hold up another', async () => {
    const deps = { db: db(), payments, publicUrl: 'http://127.0.0.1:5173', limiter: createMemoryLimiter() }
    const busy = await shopper(8)
    const other = await shopper(9)
    for (let i = 0; i < 20; i++) await startCheckout(deps, busy.user, { currency: 'USD', method: 'bank_transfer' })
    await expect(startCheckout(deps, busy.user, { currency: 'USD', method: 'bank_transfer' })).rejects.toMatchObject({
      kind: 'rate_limited',
      message: 'Too many checkout attempts. Please wait a few minutes and try again.',
    })
    await expect(startCheckout(deps, other.user, { currency: 'USD', method: 'bank_transfer' })).resolves.toMatchObject({
      method: 'bank_transfer',
      reused: false,
    })
  })

  it('Stripe refusing the session: 502 with the message, the order failed', async () => {
    const { user, caller } = await shopper(5)
    fake.failNextCreate()
    await expect(caller.payments.start({ currency: 'USD', method: 'card' })).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
      message: 'Failed to create payment session',
    })
    expect((await ordersOf(user.id)).map((order) => order.status)).toEqual(['failed'])
  })
})

describe('the success page', () => {
  it('refuses when card payments are off', async () => {
    const caller = await shopCaller(db(), await createUser(db()))
    await expect(caller.payments.confirm({ sessionId: 'cs_test_x' })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'Card payments are not configured on this store yet. Please choose PayPal or bank transfer.',
    })
  })

  it('pays the order itself when Stripe says paid (no webhook yet), and answers the same when asked again', async () => {
    const { user, caller, course, started, sessionId } = await cardCheckout(6)
    fake.completeSession(sessionId)
    const expected = {
      orderId: started.orderId,
      reference: started.reference,
      status: 'paid',
      trialText: null,
      totalMinor: course.price_minor,
      currency: 'USD',
      gift: null,
    }
    expect(await caller.payments.confirm({ sessionId })).toEqual(expected)
    expect(await statusOf(started.orderId)).toBe('paid')
    const enrolled = await db()
      .selectFrom('access_grants')
      .select(['course_id', 'order_id'])
      .where('kind', '=', 'course')
      .where('user_id', '=', user.id)
      .execute()
    expect(enrolled).toEqual([{ course_id: course.id, order_id: started.orderId }])
    expect(await caller.payments.confirm({ sessionId })).toEqual(expected)
  })

  it('a session Stripe says belongs to another order is not found, and nothing is paid', async () => {
    const { user, started, sessionId } = await cardCheckout(7)
    fake.completeSession(sessionId)
    const config = {
      ...payments,
      stripe: stripeWith({
        retrieveCheckoutSession: async (id) => ({
          ...(await payments.stripe!.retrieveCheckoutSession(id)),
          client_reference_id: '00000000-0000-4000-8000-000000000000',
          metadata: {},
        }),
      }),
    }
    const caller = await shopCaller(db(), user, config)
    await expect(caller.payments.confirm({ sessionId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No payment session found',
    })
    expect(await statusOf(started.orderId)).toBe('pending')
  })

  it('Stripe unreachable: 502 with the processing message, the order stays pending', async () => {
    const { user, started, sessionId } = await cardCheckout(8)
    const caller = await shopCaller(db(), user, { ...payments, stripe: stripeWith({ retrieveCheckoutSession: down }) })
    await expect(caller.payments.confirm({ sessionId })).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
      message: 'Error processing your payment',
    })
    expect(await statusOf(started.orderId)).toBe('pending')
  })

  it('a plan bought with the free trial says when the first charge comes and how much', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const sessionId = sessionIdOf(started.url)
    fake.completeSession(sessionId)
    const confirmed = await caller.payments.confirm({ sessionId })
    const sub = await db()
      .selectFrom('subscriptions')
      .select(['trial_ends_at'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(sub.trial_ends_at).not.toBeNull()
    expect(confirmed.trialText).toBe(trialStartedText(1999, 'USD', sub.trial_ends_at!))
    expect(confirmed.trialText).toMatch(/^Free trial started — first charge of \$19\.99 on /)
  })

  it("a trial whose subscription row has no currency (older than the column) is told in the order's currency", async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: await sterlingPlan(db()), billingCycle: 'monthly' })
    const started = await caller.payments.start({ currency: 'GBP', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const sessionId = sessionIdOf(started.url)
    fake.completeSession(sessionId)
    const first = await caller.payments.confirm({ sessionId })
    // A row from before subscriptions.currency existed: the column is null (it has no default and was not backfilled).
    const sub = await db()
      .updateTable('subscriptions')
      .set({ currency: null })
      .where('user_id', '=', user.id)
      .returning(['trial_ends_at', 'amount_minor'])
      .executeTakeFirstOrThrow()
    expect(sub.amount_minor).toBe(1500)
    const again = await caller.payments.confirm({ sessionId })
    expect(again).toEqual({ ...first, currency: 'GBP' })
    expect(again.trialText).toBe(`Free trial started — first charge of £15.00 on ${formatDate(sub.trial_ends_at!)}`)
  })
})

describe('Resume and Cancel', () => {
  it('Resume of a session paid meanwhile: 409 already paid, and the order is not expired', async () => {
    const { caller, started, sessionId } = await cardCheckout(9)
    fake.completeSession(sessionId)
    await expect(caller.payments.resume({ orderId: started.orderId })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This order has already been paid',
    })
    expect(await statusOf(started.orderId)).toBe('pending')
  })

  it('Resume of a card order without a session: expired, start again', async () => {
    const { caller, started } = await cardCheckout(10)
    await sql`update orders set stripe_session_id = null where id = ${started.orderId}`.execute(db())
    await expect(caller.payments.resume({ orderId: started.orderId })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This checkout has expired. Please start again from your cart.',
    })
  })

  it('Resume while Stripe is unreachable: 502, the order stays pending', async () => {
    const { user, started } = await cardCheckout(11)
    const caller = await shopCaller(db(), user, { ...payments, stripe: stripeWith({ retrieveCheckoutSession: down }) })
    await expect(caller.payments.resume({ orderId: started.orderId })).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
      message: 'Failed to create payment session',
    })
    expect(await statusOf(started.orderId)).toBe('pending')
  })

  it('Resume of a bank transfer is refused', async () => {
    const { caller } = await shopper(12)
    const bank = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    await expect(caller.payments.resume({ orderId: bank.orderId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Only a pending card payment can be resumed',
    })
  })

  it('Cancel answers with the order id; a paid order is not cancellable', async () => {
    const { caller } = await shopper(13)
    const bank = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    expect(await caller.payments.cancelOrder({ orderId: bank.orderId })).toEqual({ id: bank.orderId })

    const paid = await cardCheckout(14)
    fake.completeSession(paid.sessionId)
    await paid.caller.payments.confirm({ sessionId: paid.sessionId })
    await expect(paid.caller.payments.cancelOrder({ orderId: paid.started.orderId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Only a pending order can be cancelled',
    })
    expect(await statusOf(paid.started.orderId)).toBe('paid')
  })

  it('buyer Cancel while Stripe is unreachable: 502, nothing cancelled', async () => {
    const { user, started } = await cardCheckout(15)
    const caller = await shopCaller(db(), user, { ...payments, stripe: stripeWith({ expireCheckoutSession: down }) })
    await expect(caller.payments.cancelOrder({ orderId: started.orderId })).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
      message: 'We could not reach the card processor. Please try again in a moment.',
    })
    expect(await statusOf(started.orderId)).toBe('pending')
  })
})

describe('staff Cancel', () => {
  it('Stripe unreachable: nothing is cancelled and staff are told to retry', async () => {
    const { started, sessionId } = await cardCheckout(16)
    const staff = await admin()
    await expect(
      cancelOrderByStaff(db(), stripeWith({ expireCheckoutSession: down }), started.orderId, actorOf(staff)),
    ).rejects.toMatchObject({
      kind: 'upstream',
      message: 'We could not reach the card processor. Please try again in a moment.',
    })
    expect(await statusOf(started.orderId)).toBe('pending')
    expect(fake.sessions.get(sessionId)?.status).toBe('open')
  })

  it('an unknown order is not found', async () => {
    await expect(
      cancelOrderByStaff(db(), payments.stripe, '00000000-0000-4000-8000-000000000000', actorOf(await admin())),
    ).rejects.toMatchObject({ kind: 'not_found', message: 'Order not found' })
  })

  it('a card order no longer pending is not closed at Stripe again', async () => {
    const { started, sessionId } = await cardCheckout(17)
    fake.completeSession(sessionId)
    await sql`update orders set status = 'failed' where id = ${started.orderId}`.execute(db())
    const expire = vi.fn(down)
    await cancelOrderByStaff(
      db(),
      stripeWith({ expireCheckoutSession: expire }),
      started.orderId,
      actorOf(await admin()),
    )
    expect(expire).not.toHaveBeenCalled()
    expect(await statusOf(started.orderId)).toBe('cancelled')
  })
})

describe('the 24 h expiry', () => {
  const age = (orderId: string, ms: number) =>
    sql`update orders set created_at = ${new Date(Date.now() - ms)} where id = ${orderId}`.execute(db())

  it('is 24 hours: an order 23 hours old stays, one a minute past 24 hours expires', async () => {
    expect(CHECKOUT_LIFETIME_MS).toBe(86_400_000)
    const young = await cardCheckout(18)
    const old = await cardCheckout(19)
    await age(young.started.orderId, 23 * 3_600_000)
    await age(old.started.orderId, 24 * 3_600_000 + 60_000)
    await expireAbandonedCheckouts({ db: db(), stripe: payments.stripe })
    expect(await statusOf(young.started.orderId)).toBe('pending')
    expect(await statusOf(old.started.orderId)).toBe('expired')
    await age(young.started.orderId, 0)
  })

  it('an order whose session cannot be closed is left for the next run (logged); the others expire', async () => {
    const stuck = await cardCheckout(20)
    const other = await cardCheckout(21)
    await age(stuck.started.orderId, 25 * 3_600_000)
    await age(other.started.orderId, 25 * 3_600_000)
    const stripe = stripeWith({
      expireCheckoutSession: (id) => (id === stuck.sessionId ? down() : payments.stripe!.expireCheckoutSession(id)),
    })
    const warn = vi.fn()
    expect(await expireAbandonedCheckouts({ db: db(), stripe, log: { warn } })).toBe(1)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn).toHaveBeenCalledWith(
      { err: expect.any(Error), orderId: stuck.started.orderId },
      'could not expire an abandoned checkout; retried next run',
    )
    expect(await statusOf(stuck.started.orderId)).toBe('pending')
    expect(await statusOf(other.started.orderId)).toBe('expired')
    // Without a logger the job still runs on.
    expect(await expireAbandonedCheckouts({ db: db(), stripe })).toBe(0)
    await age(stuck.started.orderId, 0)
  })

  it('a session paid meanwhile pays the order instead of expiring it', async () => {
    const paid = await cardCheckout(22)
    await age(paid.started.orderId, 25 * 3_600_000)
    fake.completeSession(paid.sessionId)
    expect(await expireAbandonedCheckouts({ db: db(), stripe: payments.stripe })).toBe(0)
    expect(await statusOf(paid.started.orderId)).toBe('paid')
  })
})

describe('bank transfer details', () => {
  const mailOf = (email: string) =>
    db()
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', email)
      .where('kind', '=', 'bank_transfer_details')
      .executeTakeFirstOrThrow()

  it('the GBP e-mail: the sort code, the account, the amount and the reference, word for word', async () => {
    const user = await createUser(db(), { firstName: 'Ada' })
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({
      kind: 'service_package',
      packageId: (await servicePackage(db(), 'uk-company-formation', 'Standard')).id,
    })
    const started = await caller.payments.start({ currency: 'GBP', method: 'bank_transfer' })
    expect(await mailOf(user.email)).toEqual({
      subject: `Bank transfer details for order ${started.reference}`,
      text_body: `Hi Ada,\n\nPlease transfer £300.00 to the account below and quote the payment reference so we can match your payment:\n\nBank Name: Barclays Bank PLC\nAccount Name: SkillForge Ltd\nAccount Number: 12345678\nSort Code: 20-00-00\nSWIFT Code: BARCGB22\nPayment Reference: ${started.reference}\n\nThe details stay on your order in My Account until we confirm the payment (usually within 24 hours of it arriving). An order not paid within 7 days expires.`,
    })
  })

  it('the USD e-mail has the routing number, and greets a buyer without a first name as "there"', async () => {
    const user = await createUser(db(), { firstName: '' })
    const caller = await shopCaller(db(), user, payments)
    const course = await publishedCourse(db(), 23)
    await caller.cart.add({ kind: 'course', courseId: course.id })
    const started = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    const mail = await mailOf(user.email)
    expect(mail.text_body.split('\n\n').slice(0, 3)).toEqual([
      'Hi there,',
      `Please transfer $${(course.price_minor / 100).toFixed(2)} to the account below and quote the payment reference so we can match your payment:`,
      `Bank Name: Barclays Bank PLC\nAccount Name: SkillForge Ltd\nAccount Number: 12345678\nRouting Number: 026009593\nSWIFT Code: BARCGB22\nPayment Reference: ${started.reference}`,
    ])
  })

  it('instructions on /account: bank details only on an unpaid bank transfer, the PayPal link only on an unpaid PayPal order', async () => {
    const card = await cardCheckout(24)
    const bank = await shopper(25)
    await bank.caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    const paypal = await shopper(26)
    await paypal.caller.payments.start({ currency: 'USD', method: 'paypal' })

    const [cardOrder] = await card.caller.purchases.orders()
    expect(cardOrder).toMatchObject({ bank: null, paypalUrl: null })
    const [bankOrder] = await bank.caller.purchases.orders()
    expect(bankOrder).toMatchObject({
      bank: {
        currency: 'USD',
        bankName: 'Barclays Bank PLC',
        accountName: 'SkillForge Ltd',
        accountNumber: '12345678',
        routingNumber: '026009593',
        swiftCode: 'BARCGB22',
      },
      paypalUrl: null,
    })
    const [paypalOrder] = await paypal.caller.purchases.orders()
    expect(paypalOrder?.bank).toBeNull()
    expect(paypalOrder?.paypalUrl).toBe(`https://paypal.me/skillforge/${(paypalOrder!.totalMinor / 100).toFixed(2)}USD`)
    // Without a PayPal.me link there is nothing to show.
    const noLink = await shopCaller(db(), paypal.user, { ...payments, paypalMeUrl: null })
    expect((await noLink.purchases.orders())[0]?.paypalUrl).toBeNull()
    // Paid: nothing left to do.
    const staff = await shopCaller(db(), await admin(), payments)
    await staff.admin.orders.markPaid({ id: paypalOrder!.id })
    expect((await paypal.caller.purchases.orders())[0]).toMatchObject({ status: 'paid', paypalUrl: null, bank: null })
  })
})

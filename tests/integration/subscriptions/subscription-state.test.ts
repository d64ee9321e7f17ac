// How a member's subscription row and Premium grant follow from its facts (subscriptions/state.ts), each rule
// pinned with exact instants: a Stripe snapshot at the same instant as the applied one, a status that ends the
// subscription without Stripe's ended_at, an end that never moves, Stripe saying past due or unpaid before any
// failed invoice (and a paid period covering its period end, to the instant, saying otherwise), a failed invoice
// until a paid one covers it, a cancellation at a period end not paid for, a duplicate left alone, and a lapsed
// bank-transfer membership paid late (reopened) next to a cancelled one (not reopened). Found by mutation testing
// (issue 19): each test fails when its rule is broken.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { processStripeEvent } from '../../../src-server/flows/apply-stripe-event.ts'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { runMembershipSchedule } from '../../../src-server/flows/membership-renewals.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { parseStripeEvent } from '../../../src-server/payments/stripe-event.ts'
import { applyStripeSnapshot } from '../../../src-server/subscriptions/state.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db
const DAY = 86_400
const at = (seconds: number) => new Date(seconds * 1000)

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

/** Whole seconds, as Stripe sends them: the trial's end a week from now, and the first event's time. */
const NOW = Math.floor(Date.now() / 1000)
const TRIAL_END = NOW + 7 * DAY

/** A member whose plan order was paid: by Stripe for a card (its subscription `sub_<user id>`), or by staff. */
async function member(method: 'card' | 'bank_transfer') {
  const user = await createUser(db())
  await (await shopCaller(db(), user)).cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
  const order = await createFromCart(db(), { userId: user.id, currency: 'USD', method, referencePrefix: 'SF' })
  const stripeId = method === 'card' ? `sub_${user.id}` : null
  await markPaid(db(), order.id, { source: method === 'card' ? 'stripe' : 'staff', stripeSubscriptionId: stripeId })
  const { id } = await subscription(user)
  return { user, id, stripeId: stripeId ?? '' }
}

const subscription = (user: TestUser) =>
  db()
    .selectFrom('subscriptions')
    .select([
      'id',
      'status',
      'renews_at',
      'paid_through',
      'ended_at',
      'end_reason',
      'stripe_status',
      'stripe_period_end',
      'stripe_snapshot_at',
      'renewal_order_id',
    ])
    .where('user_id', '=', user.id)
    .where('duplicate_of', 'is', null)
    .executeTakeFirstOrThrow()

const premium = (user: TestUser) =>
  db()
    .selectFrom('access_grants')
    .select(['ends_at', 'revoked_at', 'revoked_reason', 'restored_at'])
    .where('user_id', '=', user.id)
    .where('kind', '=', 'premium')
    .executeTakeFirstOrThrow()

let events = 0
/** Delivers one Stripe event created at `created` (seconds); it must be processed. */
async function deliver(type: string, object: Record<string, unknown>, created: number) {
  const event = { id: `evt_state_${++events}`, object: 'event', type, created, data: { object } }
  expect(await processStripeEvent(db(), parseStripeEvent(event), 'http://shop.test')).toMatchObject({
    outcome: 'processed',
  })
}

/** The subscription as Stripe sends it: its status, period end and trial end (seconds), and anything else. */
const stripeSub = (stripeId: string, status: string, periodEnd: number | null, more: Record<string, unknown> = {}) => ({
  id: stripeId,
  status,
  trial_end: TRIAL_END,
  ...(periodEnd === null ? {} : { items: { data: [{ current_period_end: periodEnd }] } }),
  ...more,
})

const invoice = (stripeId: string, id: string, periodEnd: number) => ({
  id: `in_${id}_${stripeId}`,
  subscription: stripeId,
  amount_paid: 999,
  period_start: periodEnd - 30 * DAY,
  period_end: periodEnd,
})

describe('a Stripe snapshot', () => {
  it('at the same instant as the applied one, the one delivered later is applied; an older one is not', async () => {
    const { user, stripeId } = await member('card')
    await deliver('customer.subscription.updated', stripeSub(stripeId, 'active', TRIAL_END + 30 * DAY), NOW)
    await deliver('customer.subscription.updated', stripeSub(stripeId, 'active', TRIAL_END + 31 * DAY), NOW)
    expect(await subscription(user)).toMatchObject({
      stripe_snapshot_at: at(NOW),
      stripe_period_end: at(TRIAL_END + 31 * DAY),
      renews_at: at(TRIAL_END + 31 * DAY),
    })
    await deliver('customer.subscription.updated', stripeSub(stripeId, 'active', TRIAL_END + 32 * DAY), NOW - 1)
    expect(await subscription(user)).toMatchObject({
      stripe_snapshot_at: at(NOW),
      stripe_period_end: at(TRIAL_END + 31 * DAY),
      renews_at: at(TRIAL_END + 31 * DAY),
    })
  })

  for (const status of ['canceled', 'incomplete_expired']) {
    it(`${status} without Stripe's ended_at: ended at the event time, a cancellation, Premium revoked then`, async () => {
      const { user, stripeId } = await member('card')
      await deliver('customer.subscription.updated', stripeSub(stripeId, status, TRIAL_END), NOW + 60)
      expect(await subscription(user)).toMatchObject({
        status: 'cancelled',
        stripe_status: status,
        ended_at: at(NOW + 60),
        end_reason: 'cancellation',
      })
      expect(await premium(user)).toEqual({
        ends_at: at(TRIAL_END + 3 * DAY),
        revoked_at: at(NOW + 60),
        revoked_reason: 'cancellation',
        restored_at: null,
      })
    })
  }

  it("Stripe's ended_at ends it then, whatever the status says", async () => {
    const { user, stripeId } = await member('card')
    const snapshot = stripeSub(stripeId, 'active', TRIAL_END, { ended_at: NOW - DAY })
    await deliver('customer.subscription.updated', snapshot, NOW)
    expect(await subscription(user)).toMatchObject({
      status: 'cancelled',
      ended_at: at(NOW - DAY),
      end_reason: 'cancellation',
    })
  })

  it('a live snapshot sets no end; once ended, a later end moves neither its time nor its reason', async () => {
    const { user, stripeId } = await member('card')
    await deliver('customer.subscription.updated', stripeSub(stripeId, 'active', TRIAL_END), NOW)
    expect(await subscription(user)).toMatchObject({ status: 'active', ended_at: null, end_reason: null })

    const lapsed = { cancellation_details: { reason: 'payment_failed' } }
    await deliver('customer.subscription.deleted', stripeSub(stripeId, 'past_due', TRIAL_END, lapsed), NOW + 60)
    await deliver('customer.subscription.deleted', stripeSub(stripeId, 'canceled', TRIAL_END), NOW + 120)
    expect(await subscription(user)).toMatchObject({
      status: 'cancelled',
      ended_at: at(NOW + 60),
      end_reason: 'lapse',
    })
    expect(await premium(user)).toEqual({
      ends_at: at(TRIAL_END + 3 * DAY),
      revoked_at: at(NOW + 60),
      revoked_reason: 'lapse',
      restored_at: null,
    })
  })
})

describe('past due', () => {
  it("Stripe's past_due or unpaid before any failed invoice; a paid period reaching its period end says otherwise", async () => {
    // Paid through the trial's end; Stripe's next period is 30 days later and no invoice has reached us.
    const { user, stripeId } = await member('card')
    const next = TRIAL_END + 30 * DAY
    const snapshot = async (status: string, periodEnd: number | null, created: number) => {
      await deliver('customer.subscription.updated', stripeSub(stripeId, status, periodEnd), created)
      const row = await subscription(user)
      return { status: row.status, paid_through: row.paid_through, stripe_status: row.stripe_status }
    }
    expect(await snapshot('active', next, NOW)).toEqual({
      status: 'active',
      paid_through: at(TRIAL_END),
      stripe_status: 'active',
    })
    expect(await snapshot('past_due', next, NOW + 1)).toMatchObject({ status: 'past_due', stripe_status: 'past_due' })
    expect(await snapshot('unpaid', next, NOW + 2)).toMatchObject({ status: 'past_due', stripe_status: 'unpaid' })
    // The paid period ends exactly at Stripe's period end: paid, whatever Stripe's status.
    expect(await snapshot('past_due', TRIAL_END, NOW + 3)).toMatchObject({
      status: 'active',
      stripe_status: 'past_due',
    })
    // No period end from Stripe: nothing says the period is paid.
    expect(await snapshot('past_due', null, NOW + 4)).toMatchObject({ status: 'past_due', stripe_status: 'past_due' })
    // Premium runs to the paid period's end plus the grace days throughout.
    expect((await premium(user)).ends_at).toEqual(at(TRIAL_END + 3 * DAY))
  })

  it('a failed invoice while Stripe still says active: past due until a paid one covers its period', async () => {
    const { user, stripeId } = await member('card')
    const next = TRIAL_END + 30 * DAY
    await deliver('customer.subscription.updated', stripeSub(stripeId, 'active', next), NOW)
    await deliver('invoice.payment_failed', invoice(stripeId, 'failed', next), NOW + 60)
    expect(await subscription(user)).toMatchObject({
      status: 'past_due',
      stripe_status: 'active',
      paid_through: at(TRIAL_END),
    })
    expect((await premium(user)).ends_at).toEqual(at(TRIAL_END + 3 * DAY))

    await deliver('invoice.paid', invoice(stripeId, 'paid', next), NOW + 120)
    expect(await subscription(user)).toMatchObject({ status: 'active', paid_through: at(next), renews_at: at(next) })
    expect((await premium(user)).ends_at).toEqual(at(next + 3 * DAY))
  })
})

describe('cancelled at the period end', () => {
  it("Premium ends at the period end when paid; not paid, at the paid period's grace end (not Stripe's later end)", async () => {
    const { user, stripeId } = await member('card')
    const next = TRIAL_END + 30 * DAY
    const cancelling = stripeSub(stripeId, 'active', next, { cancel_at_period_end: true })
    await deliver('customer.subscription.updated', cancelling, NOW)
    expect(await subscription(user)).toMatchObject({ status: 'active', renews_at: at(next) })
    expect((await premium(user)).ends_at).toEqual(at(TRIAL_END + 3 * DAY))

    await deliver('invoice.paid', invoice(stripeId, 'paid', next), NOW + 60)
    expect((await premium(user)).ends_at).toEqual(at(next))
  })
})

describe('a duplicate subscription', () => {
  it('is not settled: a snapshot applied to it records Stripe’s facts and leaves its renewal date and status', async () => {
    const { user } = await member('card')
    // A second plan order paid by Stripe for the same member (put in the cart before the first one was live).
    await db()
      .insertInto('cart_items')
      .values({ user_id: user.id, kind: 'plan', plan_id: 'pro', billing_cycle: 'monthly' })
      .execute()
    const order = await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'card',
      referencePrefix: 'SF',
    })
    await markPaid(db(), order.id, { source: 'stripe', stripeSubscriptionId: `sub_dup_${user.id}` })
    const duplicate = () =>
      db()
        .selectFrom('subscriptions')
        .select(['id', 'status', 'renews_at', 'stripe_period_end'])
        .where('user_id', '=', user.id)
        .where('duplicate_of', 'is not', null)
        .executeTakeFirstOrThrow()
    const before = await duplicate()
    expect(before.status).toBe('cancelled')
    await applyStripeSnapshot(db(), before.id, {
      eventAt: at(NOW),
      status: 'active',
      periodEnd: at(TRIAL_END + 60 * DAY),
      trialEnd: null,
      cancelAtPeriodEnd: false,
      endedAt: null,
      endReason: 'cancellation',
      customerId: null,
      plan: null,
      price: null,
    })
    expect(await duplicate()).toEqual({ ...before, stripe_period_end: at(TRIAL_END + 60 * DAY) })
  })
})

describe('a bank-transfer membership paid late', () => {
  const DAY_MS = DAY * 1000
  const deps = () => ({ db: db(), publicUrl: 'http://shop.test', referencePrefix: 'SF' })

  /** A bank member with a renewal order sent 6 days before renews_at. */
  async function withRenewalOrder() {
    const bank = await member('bank_transfer')
    const renewsAt = (await subscription(bank.user)).renews_at!.getTime()
    await runMembershipSchedule(deps(), new Date(renewsAt - 6 * DAY_MS))
    const { renewal_order_id } = await subscription(bank.user)
    expect(renewal_order_id).not.toBeNull()
    return { ...bank, renewsAt, renewalOrderId: renewal_order_id! }
  }

  it('after it lapsed: live again for one more period, its Premium restored to that period plus grace', async () => {
    const { user, renewsAt, renewalOrderId } = await withRenewalOrder()
    await runMembershipSchedule(deps(), new Date(renewsAt + 3.1 * DAY_MS))
    expect(await subscription(user)).toMatchObject({
      status: 'cancelled',
      ended_at: new Date(renewsAt + 3 * DAY_MS),
      end_reason: 'lapse',
    })
    expect(await premium(user)).toMatchObject({ revoked_at: new Date(renewsAt + 3 * DAY_MS), revoked_reason: 'lapse' })

    expect(await markPaid(db(), renewalOrderId, { source: 'staff' })).toBe('fulfilled')
    expect(await subscription(user)).toMatchObject({
      status: 'active',
      ended_at: null,
      end_reason: null,
      paid_through: new Date(renewsAt + 30 * DAY_MS),
      renews_at: new Date(renewsAt + 30 * DAY_MS),
      renewal_order_id: null,
    })
    const restored = await premium(user)
    expect(restored).toMatchObject({
      ends_at: new Date(renewsAt + 33 * DAY_MS),
      revoked_at: null,
      revoked_reason: null,
    })
    expect(restored.restored_at).toBeInstanceOf(Date)
  })

  it('after the member cancelled it: it stays ended, its renewal order cancelled with it cannot be paid', async () => {
    const { user, renewsAt, renewalOrderId } = await withRenewalOrder()
    await (await shopCaller(db(), user)).membership.cancel({ reason: 'Moving on' })
    await runMembershipSchedule(deps(), new Date(renewsAt + 60_000))
    const ended = { status: 'cancelled', ended_at: new Date(renewsAt), end_reason: 'cancellation' }
    expect(await subscription(user)).toMatchObject(ended)

    // Paying it would buy nothing (only a lapse is reopened): the order ended with the plan, and a late transfer is
    // refused for staff to send back.
    expect(await markPaid(db(), renewalOrderId, { source: 'staff' })).toBe('not_payable')
    expect(await subscription(user)).toMatchObject(ended)
    expect(await premium(user)).toEqual({
      ends_at: new Date(renewsAt),
      revoked_at: new Date(renewsAt),
      revoked_reason: 'cancellation',
      restored_at: null,
    })
  })
})

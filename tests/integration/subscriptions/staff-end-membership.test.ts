// Staff's End membership (decision 0096) against the real server, a real database and the fake Stripe: at the end of
// the current period (the member's own cancellation: Premium until then) or now (Premium ends at once, no refund), a
// free trial ended now without a charge, the audit entry naming the staff member and the member's mail committed with
// the change, a second end refused with nothing more saved, Stripe's refusal saving nothing, and only admins allowed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as clock from '../../../src-server/kernel/clock.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { STAFF_END_CLAIM_MS } from '../../../src-server/subscriptions/repository.ts'
import { formatDate } from '../../../src-shared/dates.ts'
import { STAFF_END_MESSAGES } from '../../../src-shared/schemas/membership.ts'
import { REFUND_MESSAGES } from '../../../src-shared/schemas/orders.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, sessionIdOf, startPaymentsServer } from '../../support/payments-server.ts'
import { raceIt, whileRowHeld } from '../../support/race.ts'
import { buyerWhoHadAPlan, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db
const HOUR_MS = 3_600_000

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())

const staff = () => shopCaller(db(), admin, payments)

/** A card checkout of the Basic plan: in its free trial for a first-time member, else paid for its first month. */
async function subscribe({ trial }: { trial: boolean }) {
  const member = trial ? await createUser(db()) : await buyerWhoHadAPlan(db())
  const caller = await shopCaller(db(), member, payments)
  await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected card')
  const session = fake.completeSession(sessionIdOf(started.url))
  expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
  expect(new Set(await fake.flush())).toEqual(new Set([200]))
  const stripeSub = fake.billing.retrieve(session.subscription!)!
  expect(stripeSub.status).toBe(trial ? 'trialing' : 'active')
  return { member, caller, orderId: started.orderId, stripeSub }
}

/** What staff read beside the order in the Orders list: the plan in words and what End membership may do. */
async function listed(orderId: string) {
  const { items } = await (await staff()).admin.orders.list({})
  const row = items.find((item) => item.id === orderId)
  if (!row?.membership) throw new Error('the plan order lists no membership')
  return row
}

const subscriptionRow = (id: string) =>
  db()
    .selectFrom('subscriptions')
    .select(['status', 'cancel_at_period_end', 'ended_at', 'end_reason', 'cancel_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()

const audits = (subscriptionId: string) =>
  db()
    .selectFrom('audit_log')
    .select(['actor_id', 'actor_email', 'action', 'entity_type', 'before', 'after'])
    .where('entity_id', '=', subscriptionId)
    .execute()

const mails = (member: TestUser) =>
  db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', member.email)
    .where('kind', '=', 'membership_ended_by_staff')
    .execute()

const refundsOf = (orderId: string) => db().selectFrom('refunds').select('id').where('order_id', '=', orderId).execute()

const day = (seconds: number) => formatDate(new Date(seconds * 1000))

describe('End membership at the end of the current period', () => {
  it('cancels at the period end as the member would: Premium until then, audited and mailed once', async () => {
    const { member, caller, orderId, stripeSub } = await subscribe({ trial: false })
    const periodEnd = stripeSub.items.data[0]!.current_period_end
    const { membership } = await listed(orderId)
    expect(membership).toMatchObject({ trial: false, canEndAtPeriodEnd: true, canEndNow: true })

    const done = await (await staff()).admin.orders.endMembership({
      subscriptionId: membership!.subscriptionId,
      when: 'period_end',
      reason: 'Asked by phone',
    })
    expect(done).toEqual({ subscriptionId: membership!.subscriptionId, when: 'period_end' })

    // Stripe holds it to end at the period's end, and so do we: the member keeps Premium until then.
    expect(fake.billing.retrieve(stripeSub.id)).toMatchObject({ status: 'active', cancel_at_period_end: true })
    expect(await subscriptionRow(membership!.subscriptionId)).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      ended_at: null,
      cancel_reason: 'Asked by phone',
    })
    expect(await caller.membership.get()).toMatchObject({
      statusText: `Cancels on ${day(periodEnd)}`,
      canCancel: false,
      canResume: true,
    })
    expect(await isPremium(db(), member)).toBe(true)
    expect(await isPremium(db(), member, new Date(periodEnd * 1000 + HOUR_MS))).toBe(false)

    const [entry, ...more] = await audits(membership!.subscriptionId)
    expect(more).toEqual([])
    expect(entry).toMatchObject({
      actor_id: admin.id,
      actor_email: admin.email,
      action: 'membership.end_at_period_end',
      entity_type: 'subscription',
    })
    expect(entry!.before).toMatchObject({ status: 'active', cancelAtPeriodEnd: false })
    expect(entry!.after).toMatchObject({
      cancelAtPeriodEnd: true,
      userId: member.id,
      reason: 'Asked by phone',
    })
    const sent = await mails(member)
    expect(sent).toEqual([
      {
        subject: `Your Basic plan ends on ${day(periodEnd)}`,
        text_body: expect.stringContaining(`Premium stays until ${day(periodEnd)}; you will not be charged again.`),
      },
    ])

    // The list now offers only ending it now; asking for the period's end again is refused, nothing more saved.
    expect((await listed(orderId)).membership).toMatchObject({ canEndAtPeriodEnd: false, canEndNow: true })
    const calls = fake.calls.length
    await expect(
      (await staff()).admin.orders.endMembership({ subscriptionId: membership!.subscriptionId, when: 'period_end' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: STAFF_END_MESSAGES.scheduled })
    expect(fake.calls.slice(calls)).toEqual([])
    expect(await audits(membership!.subscriptionId)).toHaveLength(1)
    expect(await mails(member)).toHaveLength(1)

    // At the period's end Stripe ends it (no renewal charged): Cancelled, as the member's own cancellation.
    await fake.advance(periodEnd - fake.billing.now + 3600)
    expect(fake.billing.retrieve(stripeSub.id)?.status).toBe('canceled')
    expect(await subscriptionRow(membership!.subscriptionId)).toMatchObject({
      status: 'cancelled',
      end_reason: 'cancellation',
    })
    expect(fake.billing.invoicesOf(stripeSub.customer).map((invoice) => invoice.billing_reason)).toEqual([
      'subscription_create',
    ])
  })
})

describe('two admins ending a plan at the period end at once', () => {
  raceIt('one change, one audit entry and one mail; the other admin is told someone is ending it', async () => {
    const { member, orderId, stripeSub } = await subscribe({ trial: false })
    const { membership } = await listed(orderId)
    const subscriptionId = membership!.subscriptionId
    const second = await createUser(db(), { role: 'admin' })
    const admins = [await staff(), await shopCaller(db(), second, payments)]
    // Both press it while the plan's row is held, so each has read it as not yet set to end before either finishes.
    const outcomes = await whileRowHeld(
      db(),
      'subscriptions',
      subscriptionId,
      () =>
        Promise.allSettled(
          admins.map((caller) => caller.admin.orders.endMembership({ subscriptionId, when: 'period_end' })),
        ),
      { waiters: 2, maxMs: 5_000 },
    )
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected')
    expect(refused.map((outcome) => (outcome as PromiseRejectedResult).reason)).toMatchObject([
      { code: 'CONFLICT', message: expect.stringMatching(/Another staff member is ending|already set to end/) },
    ])
    expect(fake.billing.retrieve(stripeSub.id)).toMatchObject({ status: 'active', cancel_at_period_end: true })
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: 'active', cancel_at_period_end: true })
    expect(await audits(subscriptionId)).toHaveLength(1)
    expect(await mails(member)).toHaveLength(1)
  })

  it('a claim whose change Stripe refused is let go: the next admin sets it to end', async () => {
    const { member, orderId, stripeSub } = await subscribe({ trial: false })
    const { membership } = await listed(orderId)
    const subscriptionId = membership!.subscriptionId
    fake.failNextUpdate('Something went wrong at Stripe')
    await expect(
      (await staff()).admin.orders.endMembership({ subscriptionId, when: 'period_end' }),
    ).rejects.toMatchObject({ code: 'BAD_GATEWAY' })
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: 'active', cancel_at_period_end: false })
    expect(await audits(subscriptionId)).toEqual([])
    expect(await mails(member)).toEqual([])

    await (await staff()).admin.orders.endMembership({ subscriptionId, when: 'period_end' })
    expect(fake.billing.retrieve(stripeSub.id)).toMatchObject({ cancel_at_period_end: true })
    expect(await audits(subscriptionId)).toHaveLength(1)
    expect(await mails(member)).toHaveLength(1)
  })

  it('an unfinished claim refuses another admin until it lapses (a server stopped mid-change)', async () => {
    const { member, orderId } = await subscribe({ trial: false })
    const { membership } = await listed(orderId)
    const subscriptionId = membership!.subscriptionId
    const claim = (at: Date) =>
      db().updateTable('subscriptions').set({ staff_end_claimed_at: at }).where('id', '=', subscriptionId).execute()
    await claim(clock.now())
    await expect(
      (await staff()).admin.orders.endMembership({ subscriptionId, when: 'period_end' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: STAFF_END_MESSAGES.inProgress })
    expect(await audits(subscriptionId)).toEqual([])

    await claim(new Date(clock.nowMs() - STAFF_END_CLAIM_MS - 1_000))
    await (await staff()).admin.orders.endMembership({ subscriptionId, when: 'period_end' })
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ cancel_at_period_end: true })
    expect(await mails(member)).toHaveLength(1)
    const { staff_end_claimed_at } = await db()
      .selectFrom('subscriptions')
      .select('staff_end_claimed_at')
      .where('id', '=', subscriptionId)
      .executeTakeFirstOrThrow()
    expect(staff_end_claimed_at).toBeNull()
  })
})

describe('End membership now while another admin sets it to end at the period end', () => {
  it('is refused until that change is saved: the member gets one change and one mail, then now may end it', async () => {
    const { member, orderId, stripeSub } = await subscribe({ trial: false })
    const { membership } = await listed(orderId)
    const subscriptionId = membership!.subscriptionId
    const second = await shopCaller(db(), await createUser(db(), { role: 'admin' }), payments)
    // The first admin's change waits at Stripe while the second presses End now.
    const held = fake.holdNextUpdate()
    const atPeriodEnd = (await staff()).admin.orders.endMembership({ subscriptionId, when: 'period_end' })
    await held.reached
    await expect(second.admin.orders.endMembership({ subscriptionId, when: 'now' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: STAFF_END_MESSAGES.inProgress,
    })
    held.release()
    await atPeriodEnd
    expect(fake.billing.retrieve(stripeSub.id)).toMatchObject({ status: 'active', cancel_at_period_end: true })
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: 'active', cancel_at_period_end: true })
    expect((await audits(subscriptionId)).map((entry) => entry.action)).toEqual(['membership.end_at_period_end'])
    expect(await mails(member)).toHaveLength(1)

    // Once it is saved, ending it now is the second admin's to choose.
    await second.admin.orders.endMembership({ subscriptionId, when: 'now' })
    expect(fake.billing.retrieve(stripeSub.id)?.status).toBe('canceled')
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: 'cancelled' })
    expect((await audits(subscriptionId)).map((entry) => entry.action)).toEqual([
      'membership.end_at_period_end',
      'membership.end_now',
    ])
  })
})

describe('End membership now', () => {
  it('ends a paid plan at once: Premium revoked, no refund, audited and mailed; a second end is refused', async () => {
    const { member, caller, orderId, stripeSub } = await subscribe({ trial: false })
    const { membership } = await listed(orderId)
    expect(await isPremium(db(), member)).toBe(true)
    const refundsBefore = fake.refunds.size

    await (await staff()).admin.orders.endMembership({ subscriptionId: membership!.subscriptionId, when: 'now' })

    expect(fake.billing.retrieve(stripeSub.id)?.status).toBe('canceled')
    expect(await subscriptionRow(membership!.subscriptionId)).toMatchObject({
      status: 'cancelled',
      end_reason: 'cancellation',
      ended_at: expect.any(Date),
    })
    expect(await isPremium(db(), member)).toBe(false)
    expect((await caller.purchases.entitlements()).isPremium).toBe(false)
    expect(await caller.membership.get()).toMatchObject({ status: 'cancelled', canSubscribeAgain: true })
    // No money moved: the order keeps its payment, and Stripe was asked for no refund.
    expect(fake.refunds.size).toBe(refundsBefore)
    expect(await refundsOf(orderId)).toEqual([])
    expect((await caller.purchases.orders()).find((order) => order.id === orderId)).toMatchObject({
      status: 'paid',
      refundedMinor: 0,
    })

    const [entry, ...more] = await audits(membership!.subscriptionId)
    expect(more).toEqual([])
    expect(entry).toMatchObject({ actor_id: admin.id, actor_email: admin.email, action: 'membership.end_now' })
    expect(entry!.after).toMatchObject({ status: 'cancelled', userId: member.id })
    expect(await mails(member)).toEqual([
      {
        subject: 'Your Basic plan has ended',
        text_body: expect.stringContaining('your Premium access has ended with it. You will not be charged again.'),
      },
    ])

    // Stripe's customer.subscription.deleted that follows finds it applied.
    expect(new Set(await fake.flush())).toEqual(new Set([200]))
    expect(await subscriptionRow(membership!.subscriptionId)).toMatchObject({ status: 'cancelled' })

    // Ending it again, either way, is refused and saves nothing; the list offers nothing more to end.
    expect((await listed(orderId)).membership).toMatchObject({ canEndAtPeriodEnd: false, canEndNow: false })
    for (const when of ['now', 'period_end'] as const) {
      await expect(
        (await staff()).admin.orders.endMembership({ subscriptionId: membership!.subscriptionId, when }),
      ).rejects.toMatchObject({ code: 'CONFLICT', message: STAFF_END_MESSAGES.ended })
    }
    expect(await audits(membership!.subscriptionId)).toHaveLength(1)
    expect(await mails(member)).toHaveLength(1)
  })

  it('ends a free trial with no charge; the trial’s refund refusal points staff at End membership', async () => {
    const { member, orderId, stripeSub } = await subscribe({ trial: true })
    const { membership } = await listed(orderId)
    expect(membership).toMatchObject({ trial: true, canEndNow: true })

    await expect((await staff()).admin.orders.refund({ orderId })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: REFUND_MESSAGES.trialPaidNothing,
    })
    expect(REFUND_MESSAGES.trialPaidNothing).toContain('End membership')
    expect(REFUND_MESSAGES.trialPaidNothing).not.toContain('Stripe')

    await (await staff()).admin.orders.endMembership({ subscriptionId: membership!.subscriptionId, when: 'now' })
    expect(fake.billing.retrieve(stripeSub.id)?.status).toBe('canceled')
    expect(await subscriptionRow(membership!.subscriptionId)).toMatchObject({ status: 'cancelled' })
    expect(await isPremium(db(), member)).toBe(false)
    expect(await mails(member)).toEqual([
      {
        subject: 'Your Basic plan has ended',
        text_body: expect.stringContaining(
          'Our team has ended your free trial of the Basic plan today, and your Premium access has ended with it. You have not been charged for the trial.',
        ),
      },
    ])
    expect((await audits(membership!.subscriptionId)).map((entry) => entry.action)).toEqual(['membership.end_now'])

    // Past the trial's end nothing is charged: the only invoice is the checkout's of 0.
    await fake.advance(stripeSub.trial_end! - fake.billing.now + 86_400)
    expect(fake.billing.invoicesOf(stripeSub.customer).map((invoice) => invoice.amount_paid)).toEqual([0])
    expect(await subscriptionRow(membership!.subscriptionId)).toMatchObject({ status: 'cancelled' })
  })

  it('saves nothing when Stripe refuses: the plan runs on, no audit entry, no mail', async () => {
    const { member, orderId, stripeSub } = await subscribe({ trial: false })
    const { membership } = await listed(orderId)
    fake.failNextCancel('Something went wrong at Stripe')
    await expect(
      (await staff()).admin.orders.endMembership({ subscriptionId: membership!.subscriptionId, when: 'now' }),
    ).rejects.toMatchObject({ code: 'BAD_GATEWAY' })
    expect(fake.billing.retrieve(stripeSub.id)?.status).toBe('active')
    expect(await subscriptionRow(membership!.subscriptionId)).toMatchObject({ status: 'active', ended_at: null })
    expect(await isPremium(db(), member)).toBe(true)
    expect(await audits(membership!.subscriptionId)).toEqual([])
    expect(await mails(member)).toEqual([])
  })
})

describe('who may end a membership', () => {
  it('only admins: the member, a customer, an editor and no session are refused, and nothing moves', async () => {
    const { member, orderId, stripeSub } = await subscribe({ trial: false })
    const { membership } = await listed(orderId)
    const input = { subscriptionId: membership!.subscriptionId, when: 'now' as const }
    const calls = fake.calls.length
    for (const user of [member, await createUser(db()), await createUser(db(), { role: 'editor' })]) {
      await expect((await shopCaller(db(), user, payments)).admin.orders.endMembership(input)).rejects.toMatchObject({
        code: 'FORBIDDEN',
      })
    }
    await expect((await shopCaller(db(), null, payments)).admin.orders.endMembership(input)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    })
    expect(fake.calls.slice(calls)).toEqual([])
    expect(fake.billing.retrieve(stripeSub.id)?.status).toBe('active')
    expect(await subscriptionRow(membership!.subscriptionId)).toMatchObject({ status: 'active' })
    expect(await audits(membership!.subscriptionId)).toEqual([])
    expect(await mails(member)).toEqual([])
  })

  it('an unknown subscription is not found', async () => {
    await expect(
      (await staff()).admin.orders.endMembership({
        subscriptionId: '00000000-0000-4000-8000-000000000000',
        when: 'now',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: STAFF_END_MESSAGES.notFound })
  })
})

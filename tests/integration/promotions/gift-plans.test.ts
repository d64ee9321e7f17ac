// Gifting a plan (issue 32, decision 0050): a prepaid term (1, 3 or 12 months) paid once; the buyer is not
// subscribed; the recipient's Premium starts when they claim and ends after the term (no renewal); an unclaimed gift
// refunded as a whole can no longer be claimed; a claimed one's refund revokes the recipient's Premium.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  creatorStanding,
  ownerPlanIncludes,
  ownerPlanIncludesPromotions,
} from '../../../src-server/flows/creator-standing.ts'
import { supportOf } from '../../../src-server/flows/support.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { GIFT_MESSAGES } from '../../../src-server/promotions/gifts.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { GIFT_PLAN_MESSAGES } from '../../../src-shared/schemas/gifts.ts'
import { buyPlan } from '../../support/creator-courses.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db
const DAY_S = 86_400

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())
afterEach(() => resetClock())

const caller = (user: TestUser) => shopCaller(db(), user, payments)
let recipients = 0
const newRecipient = () => `plan-friend-${++recipients}-${Date.now()}@example.com`
const tokenOf = async (to: string) => {
  const mail = await db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', to)
    .where('kind', '=', 'gift')
    .executeTakeFirstOrThrow()
  return { mail, token: /\/gifts\/claim\?token=([a-z2-7]+)/.exec(mail.text_body)![1]! }
}

async function giftPlan(planMonths: 1 | 3 | 12, method: 'card' | 'bank_transfer' = 'card', planId = 'pro') {
  const buyer = await createUser(db())
  const recipientEmail = newRecipient()
  const started = await (await caller(buyer)).gifts.checkout({
    planId,
    planMonths,
    recipientEmail,
    message: 'Enjoy Premium!',
    method,
  })
  if (started.method === 'card') {
    const sessionId = new URL(started.url).pathname.split('/').pop()!
    // Paid once: a one-off payment, not a subscription.
    expect(fake.createParams.get(sessionId)?.mode).toBe('payment')
    await fake.deliver('checkout.session.completed', fake.completeSession(sessionId))
  } else {
    await (await caller(admin)).admin.orders.markPaid({ id: started.orderId })
  }
  return { buyer, recipientEmail, started }
}

const subscriptionsOf = (userId: string) =>
  db().selectFrom('subscriptions').select('id').where('user_id', '=', userId).execute()

describe('gifting a plan', () => {
  it('3 months prepaid: the buyer gets nothing; Premium starts at the claim and ends after the term', async () => {
    const { buyer, recipientEmail, started } = await giftPlan(3)
    expect(started.totalMinor).toBe(3 * 1999) // Pro monthly, three months
    expect(await isPremium(db(), buyer)).toBe(false)
    expect(await subscriptionsOf(buyer.id)).toEqual([])
    const { mail, token } = await tokenOf(recipientEmail)
    // The plan named once, with its term once ("sent you a membership: Pro membership: 3 months" before).
    expect(mail.subject).toBe('Test User sent you a Pro membership for 3 months')
    expect(mail.text_body).toContain('Test User has given you a Pro membership for 3 months on SkillForge.')
    expect(mail.text_body).toContain('starts the day you claim it')
    expect(await (await shopCaller(db(), null, payments)).gifts.preview({ token })).toMatchObject({
      kind: 'membership',
      planName: 'Pro',
      planMonths: 3,
    })

    // Claimed ten days after it was sent: the term counts from the claim.
    await advanceClock(10 * DAY_S)
    const recipient = await createUser(db())
    const claimed = await (await caller(recipient)).gifts.claim({ token })
    expect(claimed).toMatchObject({ planId: 'pro', planName: 'Pro' })
    const claimedAt = new Date(Date.now() + 10 * DAY_S * 1000)
    const endsAt = new Date((claimed as { endsAt: string }).endsAt)
    expect(Math.round((endsAt.getTime() - claimedAt.getTime()) / (DAY_S * 1000))).toBeGreaterThanOrEqual(89)
    expect(Math.round((endsAt.getTime() - claimedAt.getTime()) / (DAY_S * 1000))).toBeLessThanOrEqual(92)
    expect((await (await caller(recipient)).purchases.entitlements()).isPremium).toBe(true)
    expect(await subscriptionsOf(recipient.id)).toEqual([]) // nothing renews, nothing to cancel
    await expect((await caller(recipient)).gifts.claim({ token })).rejects.toThrow(GIFT_MESSAGES.claimed)

    // Still Premium the day before the end; not after it.
    await advanceClock((endsAt.getTime() - claimedAt.getTime()) / 1000 - DAY_S)
    expect(await isPremium(db(), recipient)).toBe(true)
    await advanceClock(2 * DAY_S)
    expect(await isPremium(db(), recipient)).toBe(false)
    expect((await (await caller(buyer)).gifts.mine())[0]).toMatchObject({
      state: 'claimed',
      planId: 'pro',
      planMonths: 3,
    })
  })

  it('a gifted term never runs alongside Premium the recipient pays for or holds: it follows it', async () => {
    const recipient = await createUser(db())
    const claim = async (months: 1 | 3) => {
      const { recipientEmail } = await giftPlan(months)
      const { token } = await tokenOf(recipientEmail)
      const claimIt = async () =>
        (await (await caller(recipient)).gifts.claim({ token })) as { startsAt: string; endsAt: string }
      return { token, claim: claimIt }
    }
    // A paid plan that renews: the claim is refused (nothing claimed), as the term would be spent beside it.
    await buyPlan(db(), recipient, 'basic')
    const first = await claim(1)
    await expect(first.claim()).rejects.toThrow(GIFT_MESSAGES.paysForPremium)
    expect(
      await db().selectFrom('gifts').select('claimed_at').where('claimed_by', '=', recipient.id).execute(),
    ).toEqual([])
    // The member cancels the renewal: the term starts when the paid period ends.
    const paid = await db()
      .updateTable('subscriptions')
      .set({ cancel_at_period_end: true })
      .where('user_id', '=', recipient.id)
      .returning('renews_at')
      .executeTakeFirstOrThrow()
    const firstTerm = await first.claim()
    // (after the paid grant's own end: the period plus the grace days a late renewal payment would have had)
    expect(new Date(firstTerm.startsAt).getTime()).toBeGreaterThanOrEqual(paid.renews_at!.getTime())
    const paidGrantEnd = await db()
      .selectFrom('access_grants')
      .select((eb) => eb.fn.max('ends_at').as('end'))
      .where('user_id', '=', recipient.id)
      .where('subscription_id', 'is not', null)
      .executeTakeFirstOrThrow()
    expect(firstTerm.startsAt).toBe(new Date(paidGrantEnd.end as Date).toISOString())
    // A second gift follows the first one's end.
    const secondTerm = await (await claim(3)).claim()
    expect(secondTerm.startsAt).toBe(firstTerm.endsAt)
    expect(new Date(secondTerm.endsAt).getTime()).toBeGreaterThan(
      new Date(firstTerm.endsAt).getTime() + 88 * DAY_S * 1000,
    )
  })

  it('12 months costs the annual price', async () => {
    const { started } = await giftPlan(12, 'bank_transfer')
    expect(started.totalMinor).toBe(19_999)
  })

  it('an unclaimed plan gift refunded as a whole can no longer be claimed', async () => {
    const { recipientEmail, started } = await giftPlan(1)
    const { token } = await tokenOf(recipientEmail)
    const refund = await (await caller(admin)).admin.orders.refund({ orderId: started.orderId, reason: 'changed mind' })
    expect(refund).toMatchObject({ status: 'refunded', amountMinor: 1999 })
    const recipient = await createUser(db())
    await expect((await caller(recipient)).gifts.claim({ token })).rejects.toThrow(GIFT_MESSAGES.refunded)
    expect(await isPremium(db(), recipient)).toBe(false)
  })

  it("a claimed plan gift's refund revokes the recipient's Premium", async () => {
    const { recipientEmail, started } = await giftPlan(3, 'bank_transfer')
    const { token } = await tokenOf(recipientEmail)
    const recipient = await createUser(db())
    await (await caller(recipient)).gifts.claim({ token })
    expect(await isPremium(db(), recipient)).toBe(true)
    await (await caller(admin)).admin.orders.refund({ orderId: started.orderId, reason: 'refund', reference: 'BANK-9' })
    expect(await isPremium(db(), recipient)).toBe(false)
  })

  it("a claimed term holds its plan's promises while it runs: Enterprise support and creator features", async () => {
    const { recipientEmail } = await giftPlan(1, 'bank_transfer', 'enterprise')
    const { token } = await tokenOf(recipientEmail)
    const recipient = await createUser(db())
    await (await caller(recipient)).gifts.claim({ token })
    expect(await supportOf(db(), recipient.id)).toMatchObject({ tier: 'dedicated', planName: 'Enterprise' })
    expect(await creatorStanding(db(), recipient.id)).toMatchObject({ planId: 'enterprise', planName: 'Enterprise' })
    expect(await ownerPlanIncludes(db(), recipient.id, 'customDomain')).toBe(true)
    expect(await ownerPlanIncludesPromotions(db(), recipient.id)).toBe(true)

    // The term over, so are its promises.
    await advanceClock(40 * DAY_S)
    expect(await supportOf(db(), recipient.id)).toMatchObject({ tier: 'email', planName: null })
    expect((await creatorStanding(db(), recipient.id)).planId).toBeNull()
    expect(await ownerPlanIncludes(db(), recipient.id, 'customDomain')).toBe(false)
  })

  it('refuses hostile input: a term not offered, a plan and a course at once, an unknown plan', async () => {
    const api = await caller(await createUser(db()))
    const base = { recipientEmail: 'friend@example.com', message: '', method: 'card' as const }
    await expect(api.gifts.checkout({ ...base, planId: 'pro', planMonths: 2 } as never)).rejects.toThrow(
      GIFT_PLAN_MESSAGES.term,
    )
    await expect(api.gifts.checkout({ ...base, planId: 'pro' })).rejects.toThrow(GIFT_PLAN_MESSAGES.term)
    await expect(api.gifts.checkout({ ...base, planId: 'pro', planMonths: 1, courseId: 'x' })).rejects.toThrow(
      GIFT_PLAN_MESSAGES.oneThing,
    )
    await expect(api.gifts.checkout({ ...base })).rejects.toThrow(GIFT_PLAN_MESSAGES.oneThing)
    await expect(api.gifts.checkout({ ...base, planId: 'no-such-plan', planMonths: 1 })).rejects.toThrow(
      'Plan not found',
    )
    await expect(
      api.gifts.checkout({ ...base, planId: 'pro', planMonths: 1, priceMinor: 1 } as never),
    ).rejects.toThrow()
  })
})

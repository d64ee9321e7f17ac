// Gifts (issue 32): the buyer is never enrolled (even for nothing); the recipient's e-mail goes out once, at its date;
// a claim link works once and a guessed or replaced one is refused; a resend kills the old link; a refund of an
// unclaimed gift stops its claim, and of a claimed one revokes the recipient's access. Decision 0146: a course the
// recipient already holds leaves the gift unclaimed and tells the giver; a +tag of the buyer's own address is theirs;
// a claimed gift's refund tells staff, the recipient and the giver what it does; the buyer's order history and receipt
// say whom the gift is for; a gift mailed to an account's verified address waits for it without the link. Decision
// 0163: when that account moves to another address, its gifts follow it (not whoever takes the old address next).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { grant } from '../../../src-server/access/ledger.ts'
import { SESSION_USER_COLUMNS, toSessionUser } from '../../../src-server/auth/session-user.ts'
import { sendDueGifts } from '../../../src-server/flows/gift-delivery.ts'
import { GIFT_PURCHASE_MESSAGES } from '../../../src-server/flows/gift-purchase.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { GIFT_MESSAGES } from '../../../src-server/promotions/gifts.ts'
import { GIFT_PLAN_MESSAGES } from '../../../src-shared/schemas/gifts.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())
afterEach(() => resetClock())

const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!
const caller = (user: TestUser) => shopCaller(db(), user, payments)
const owned = async (user: TestUser) => (await (await caller(user)).purchases.entitlements()).courseIds

let recipients = 0
const newRecipient = () => `friend-${++recipients}-${Date.now()}@example.com`

async function giftMails(to: string) {
  return db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', to)
    .where('kind', '=', 'gift')
    .orderBy('created_at')
    .execute()
}
const mailsOf = (to: string, kind: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', to)
    .where('kind', '=', kind)
    .orderBy('created_at')
    .execute()
const tokenIn = (text: string) => /\/gifts\/claim\?token=([a-z2-7]+)/.exec(text)?.[1] as string

/** A gift of the offset-th priced course, bought by card (webhook) or bank transfer (staff mark it paid). */
async function buyGift(
  options: { offset?: number; method?: 'card' | 'bank_transfer'; sendOn?: string; recipientEmail?: string } = {},
) {
  const buyer = await createUser(db(), { firstName: 'Gil', lastName: 'Giver' })
  const [course] = await pricedCourses(db(), { offset: options.offset ?? 0 })
  const recipientEmail = options.recipientEmail ?? newRecipient()
  const started = await (await caller(buyer)).gifts.checkout({
    courseId: course!.id,
    recipientEmail,
    message: 'Happy birthday!',
    sendOn: options.sendOn,
    method: options.method ?? 'card',
  })
  if (started.method === 'card') {
    await fake.deliver('checkout.session.completed', fake.completeSession(sessionIdOf(started.url)))
  } else {
    await (await caller(admin)).admin.orders.markPaid({ id: started.orderId })
  }
  return { buyer, course: course!, recipientEmail, orderId: started.orderId }
}

describe('buying a gift', () => {
  it('does not enrol the buyer; the recipient gets one e-mail with a claim link that works once', async () => {
    const { buyer, course, recipientEmail } = await buyGift()
    expect(await owned(buyer)).not.toContain(course.id)
    const mails = await giftMails(recipientEmail)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text_body).toContain('Happy birthday!')
    expect(mails[0]!.subject).toContain(course.title)
    const token = tokenIn(mails[0]!.text_body)
    // Only the hash is stored.
    const row = await db()
      .selectFrom('gifts')
      .select('token_hash')
      .where('recipient_email', '=', recipientEmail)
      .executeTakeFirstOrThrow()
    expect(row.token_hash).not.toContain(token)

    // The link's page says what the gift is and who sent it before anyone signs in.
    const visitor = await shopCaller(db(), null, payments)
    expect(await visitor.gifts.preview({ token })).toEqual({
      kind: 'course',
      title: course.title,
      planName: null,
      planMonths: null,
      from: 'Gil Giver',
      message: 'Happy birthday!',
      owned: false,
      refusal: null,
    })
    await expect(visitor.gifts.claim({ token })).rejects.toMatchObject({ code: 'UNAUTHORIZED' })

    const recipient = await createUser(db())
    expect(await (await caller(recipient)).gifts.claim({ token })).toEqual({ courseId: course.id, title: course.title })
    expect(await visitor.gifts.preview({ token })).toMatchObject({ refusal: GIFT_MESSAGES.claimed })
    expect(await owned(recipient)).toContain(course.id)
    // Used again, by the same or another account: refused, and nobody else gets the course.
    await expect((await caller(recipient)).gifts.claim({ token })).rejects.toThrow(GIFT_MESSAGES.claimed)
    const other = await createUser(db())
    await expect((await caller(other)).gifts.claim({ token })).rejects.toThrow(GIFT_MESSAGES.claimed)
    expect(await owned(other)).not.toContain(course.id)
    expect(await owned(buyer)).not.toContain(course.id)

    const [gift] = await (await caller(buyer)).gifts.mine()
    expect(gift).toMatchObject({ state: 'claimed', recipientEmail, title: course.title })
  })

  // Exactly one of ten simultaneous claims wins. Checked on PostgreSQL without the row lock (lockGiftByToken's FOR
  // UPDATE) and the conditional update (markClaimed's `claimed_at is null`): several claims then passed and several
  // accounts got the course.
  it('ten claims of one link at once: exactly one account gets the course', async () => {
    const { course, recipientEmail } = await buyGift({ offset: 5 })
    const token = tokenIn((await giftMails(recipientEmail))[0]!.text_body)
    const claimants = await Promise.all(Array.from({ length: 10 }, () => createUser(db())))
    const callers = await Promise.all(claimants.map((user) => caller(user)))
    const results = await Promise.allSettled(callers.map((api) => api.gifts.claim({ token })))
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    const refusals = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []))
    expect(refusals.every((message) => message.includes(GIFT_MESSAGES.claimed))).toBe(true)
    const owners = await db()
      .selectFrom('access_grants')
      .select('user_id')
      .where('course_id', '=', course.id)
      .where(
        'user_id',
        'in',
        claimants.map((user) => user.id),
      )
      .execute()
    expect(owners).toHaveLength(1)
  })

  it('refuses guessed and malformed links clearly', async () => {
    const someone = await createUser(db())
    const api = await caller(someone)
    await expect(api.gifts.claim({ token: 'a'.repeat(40) })).rejects.toThrow(GIFT_MESSAGES.badLink)
    await expect(api.gifts.preview({ token: 'a'.repeat(40) })).rejects.toThrow(GIFT_MESSAGES.badLink)
    await expect(api.gifts.claim({ token: 'not a token' })).rejects.toThrow(GIFT_MESSAGES.badLink)
    await expect(api.gifts.claim({ token: `${'a'.repeat(39)}\u0000` })).rejects.toThrow('NUL')
    await expect(api.gifts.claim({ token: 'a'.repeat(10_000) })).rejects.toThrow(GIFT_MESSAGES.badLink)
  })

  it('refuses hostile gift input: bad address, NUL in the message, a date too far or not a date, a price from the client', async () => {
    const buyer = await createUser(db())
    const api = await caller(buyer)
    const [course] = await pricedCourses(db())
    const base = { courseId: course!.id, recipientEmail: 'friend@example.com', message: '', method: 'card' as const }
    await expect(api.gifts.checkout({ ...base, recipientEmail: 'nobody' })).rejects.toThrow('valid email')
    await expect(api.gifts.checkout({ ...base, message: 'hi\u0000' })).rejects.toThrow('character')
    await expect(api.gifts.checkout({ ...base, message: 'x'.repeat(1001) })).rejects.toThrow('1000')
    await expect(api.gifts.checkout({ ...base, sendOn: '2026-02-31' })).rejects.toThrow('valid date')
    await expect(api.gifts.checkout({ ...base, sendOn: '2099-01-01' })).rejects.toThrow('within the next year')
    await expect(api.gifts.checkout({ ...base, priceMinor: 1 } as never)).rejects.toThrow()
    await expect(api.gifts.checkout({ ...base, courseId: 'no-such-course' })).rejects.toThrow('Course not found')
    expect(await api.gifts.mine()).toEqual([])
  })

  it('a free course given: nobody pays, the buyer is not enrolled, the recipient is mailed', async () => {
    const [free] = await pricedCourses(db(), { free: true })
    if (!free) return // the seed has no free course
    const buyer = await createUser(db())
    const recipientEmail = newRecipient()
    const started = await (await caller(buyer)).gifts.checkout({
      courseId: free.id,
      recipientEmail,
      message: '',
      method: 'free',
    })
    expect(started.method).toBe('free')
    expect(await owned(buyer)).not.toContain(free.id)
    expect(await giftMails(recipientEmail)).toHaveLength(1)
  })

  it('a course sold in USD and GBP is given in the currency chosen; nothing chosen: its list price', async () => {
    const [course] = await pricedCourses(db(), { offset: 5 })
    await db()
      .updateTable('courses')
      .set({ price_minor: 4999, currency: 'USD', price_usd_minor: 4999, price_gbp_minor: 3999 })
      .where('id', '=', course!.id)
      .execute()
    const api = await caller(await createUser(db()))
    const gift = (currency?: 'USD' | 'GBP') =>
      api.gifts.checkout({
        courseId: course!.id,
        currency,
        recipientEmail: newRecipient(),
        message: '',
        method: 'bank_transfer',
      })
    expect(await gift('GBP')).toMatchObject({ totalMinor: 3999, currency: 'GBP' })
    expect(await gift('USD')).toMatchObject({ totalMinor: 4999, currency: 'USD' })
    expect(await gift()).toMatchObject({ totalMinor: 4999, currency: 'USD' })

    // Not sold in pounds: the price it is sold in; a plan has one currency.
    await db().updateTable('courses').set({ price_gbp_minor: null }).where('id', '=', course!.id).execute()
    expect(await gift('GBP')).toMatchObject({ totalMinor: 4999, currency: 'USD' })
    await expect(
      api.gifts.checkout({
        planId: 'pro',
        planMonths: 1,
        currency: 'GBP',
        recipientEmail: newRecipient(),
        method: 'bank_transfer',
      }),
    ).rejects.toThrow(GIFT_PLAN_MESSAGES.currencyForCourse)
  })

  it('waits for its send date, then the sweep sends it once even when it runs twice', async () => {
    const day = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)
    const { recipientEmail, buyer } = await buyGift({ offset: 1, method: 'bank_transfer', sendOn: day })
    expect(await giftMails(recipientEmail)).toHaveLength(0)
    await sendDueGifts(db())
    expect(await giftMails(recipientEmail)).toHaveLength(0)
    expect((await (await caller(buyer)).gifts.mine())[0]).toMatchObject({ state: 'scheduled' })
    await advanceClock(4 * 24 * 60 * 60)
    await Promise.all([sendDueGifts(db()), sendDueGifts(db())])
    await sendDueGifts(db())
    expect(await giftMails(recipientEmail)).toHaveLength(1)
  })
})

describe('resending and refunding', () => {
  it('resends to a corrected address: a new link, the old one dead', async () => {
    const { buyer, course, recipientEmail } = await buyGift({ offset: 2 })
    const oldToken = tokenIn((await giftMails(recipientEmail))[0]!.text_body)
    const [gift] = await (await caller(buyer)).gifts.mine()
    const corrected = newRecipient()
    expect(await (await caller(buyer)).gifts.resend({ giftId: gift!.id, recipientEmail: corrected })).toEqual({
      id: gift!.id,
      sent: true,
    })
    const newToken = tokenIn((await giftMails(corrected))[0]!.text_body)
    expect(newToken).not.toBe(oldToken)
    const recipient = await createUser(db())
    await expect((await caller(recipient)).gifts.claim({ token: oldToken })).rejects.toThrow(GIFT_MESSAGES.badLink)
    await (await caller(recipient)).gifts.claim({ token: newToken })
    expect(await owned(recipient)).toContain(course.id)
    // Claimed: no more resends; and only the buyer can resend at all.
    await expect((await caller(buyer)).gifts.resend({ giftId: gift!.id, recipientEmail: corrected })).rejects.toThrow(
      GIFT_MESSAGES.claimed,
    )
    await expect(
      (await caller(recipient)).gifts.resend({ giftId: gift!.id, recipientEmail: corrected }),
    ).rejects.toThrow(GIFT_MESSAGES.notFound)
  })

  it("refuses the buyer's own address, at checkout and on resend: nothing is ordered, the gift keeps its recipient", async () => {
    const buyer = await createUser(db())
    const [course] = await pricedCourses(db(), { offset: 5 })
    const api = await caller(buyer)
    const ownAddress = buyer.email.toUpperCase()
    const refused = api.gifts.checkout({ courseId: course!.id, recipientEmail: ownAddress, method: 'card' })
    await expect(refused).rejects.toThrow(GIFT_PURCHASE_MESSAGES.ownAddress)
    // The form shows it under the recipient's field.
    await expect(refused).rejects.toMatchObject({ cause: { field: 'recipientEmail' } })
    const orders = await db().selectFrom('orders').select('id').where('user_id', '=', buyer.id).execute()
    expect(orders).toEqual([])

    const { buyer: giver, recipientEmail } = await buyGift({ offset: 6 })
    const [gift] = await (await caller(giver)).gifts.mine()
    await expect((await caller(giver)).gifts.resend({ giftId: gift!.id, recipientEmail: giver.email })).rejects.toThrow(
      GIFT_PURCHASE_MESSAGES.ownAddress,
    )
    expect((await (await caller(giver)).gifts.mine())[0]!.recipientEmail).toBe(recipientEmail)
  })

  it('a buyer resends at most 5 times an hour: one free gift does not mail any number of addresses (decision 0114)', async () => {
    const { buyer, recipientEmail } = await buyGift({ offset: 4 })
    const api = await caller(buyer)
    const [gift] = await api.gifts.mine()
    const targets = Array.from({ length: 6 }, () => newRecipient())
    for (const to of targets.slice(0, 5)) {
      expect(await api.gifts.resend({ giftId: gift!.id, recipientEmail: to })).toEqual({ id: gift!.id, sent: true })
    }
    await expect(api.gifts.resend({ giftId: gift!.id, recipientEmail: targets[5]! })).rejects.toThrow(
      GIFT_MESSAGES.tooManyResends,
    )
    expect(await giftMails(targets[5]!)).toHaveLength(0)
    expect(await giftMails(recipientEmail)).toHaveLength(1)
  })

  it('an unclaimed gift refunded as a whole can no longer be claimed', async () => {
    const { buyer, recipientEmail, orderId } = await buyGift({ offset: 3 })
    const token = tokenIn((await giftMails(recipientEmail))[0]!.text_body)
    await (await caller(admin)).admin.orders.refund({ orderId, reason: 'buyer changed their mind' })
    const recipient = await createUser(db())
    await expect((await caller(recipient)).gifts.claim({ token })).rejects.toThrow(GIFT_MESSAGES.refunded)
    expect(await (await caller(recipient)).gifts.preview({ token })).toMatchObject({ refusal: GIFT_MESSAGES.refunded })
    expect((await (await caller(buyer)).gifts.mine())[0]).toMatchObject({ state: 'refunded' })
  })

  it("a claimed gift's refund revokes the recipient's access", async () => {
    const { course, recipientEmail, orderId } = await buyGift({ offset: 4, method: 'bank_transfer' })
    const token = tokenIn((await giftMails(recipientEmail))[0]!.text_body)
    const recipient = await createUser(db())
    await (await caller(recipient)).gifts.claim({ token })
    expect(await owned(recipient)).toContain(course.id)
    await (await caller(admin)).admin.orders.refund({ orderId, reason: 'refund', reference: 'BANK-1' })
    expect(await owned(recipient)).not.toContain(course.id)
  })
})

describe('the recipient, the giver and staff (decision 0146)', () => {
  it('a course the recipient already holds: the page says so, the claim leaves the gift unclaimed and tells the giver once', async () => {
    const { buyer, course, recipientEmail } = await buyGift({ offset: 7 })
    const token = tokenIn((await giftMails(recipientEmail))[0]!.text_body)
    const holder = await createUser(db(), { email: recipientEmail })
    await grant(db(), { userId: holder.id, right: { kind: 'course', courseId: course.id }, source: { kind: 'staff' } })
    const api = await caller(holder)
    // Before claiming: the signed-in holder is told (a visitor is not: the page knows nobody).
    expect(await api.gifts.preview({ token })).toMatchObject({ owned: true, refusal: null })
    expect(await api.gifts.waiting()).toEqual([expect.objectContaining({ title: course.title, owned: true })])
    expect(await (await shopCaller(db(), null, payments)).gifts.preview({ token })).toMatchObject({ owned: false })

    expect(await api.gifts.claim({ token })).toEqual({ alreadyOwned: true, courseId: course.id, title: course.title })
    // Pressed again: still unclaimed, and the giver is not mailed twice.
    expect(await api.gifts.claim({ token })).toMatchObject({ alreadyOwned: true })
    const gift = await db()
      .selectFrom('gifts')
      .select(['id', 'claimed_at', 'claimed_by'])
      .where('recipient_email', '=', recipientEmail)
      .executeTakeFirstOrThrow()
    expect(gift).toMatchObject({ claimed_at: null, claimed_by: null })
    // Told once, it no longer waits for them: it waits for its giver to give it elsewhere.
    expect(await api.gifts.waiting()).toEqual([])
    const told = await mailsOf(buyer.email, 'gift_recipient_owns')
    expect(told).toHaveLength(1)
    expect(told[0]!.subject).toBe(`${recipientEmail} already has ${course.title}`)
    expect(told[0]!.text_body).toContain('the gift is still yours')
    expect(told[0]!.text_body).toContain('Resend to another address')
    expect(told[0]!.text_body).toContain('Request a refund')
    expect((await (await caller(buyer)).gifts.mine())[0]).toMatchObject({ state: 'recipient_owns' })

    // The giver resends it to someone else, who claims it.
    const other = newRecipient()
    expect(await (await caller(buyer)).gifts.resend({ giftId: gift.id, recipientEmail: other })).toMatchObject({
      sent: true,
    })
    expect((await (await caller(buyer)).gifts.mine())[0]).toMatchObject({ state: 'sent', recipientEmail: other })
    const friend = await createUser(db())
    const newToken = tokenIn((await giftMails(other))[0]!.text_body)
    expect(await (await caller(friend)).gifts.claim({ token: newToken })).toEqual({
      courseId: course.id,
      title: course.title,
    })
    expect(await owned(friend)).toContain(course.id)
  })

  it("a +tag of the buyer's own address is their own, at checkout and on resend (as coupons count it, decision 0041)", async () => {
    const buyer = await createUser(db(), { email: `lea-${Date.now()}@example.com` })
    const [local, domain] = buyer.email.split('@')
    const tagged = `${local}+me@${domain}`.toUpperCase()
    const [course] = await pricedCourses(db(), { offset: 5 })
    const api = await caller(buyer)
    await expect(api.gifts.checkout({ courseId: course!.id, recipientEmail: tagged, method: 'card' })).rejects.toThrow(
      GIFT_PURCHASE_MESSAGES.ownAddress,
    )
    expect(await db().selectFrom('orders').select('id').where('user_id', '=', buyer.id).execute()).toEqual([])

    const { buyer: giver } = await buyGift({ offset: 6 })
    const [gift] = await (await caller(giver)).gifts.mine()
    const [giverLocal, giverDomain] = giver.email.split('@')
    await expect(
      (await caller(giver)).gifts.resend({ giftId: gift!.id, recipientEmail: `${giverLocal}+again@${giverDomain}` }),
    ).rejects.toThrow(GIFT_PURCHASE_MESSAGES.ownAddress)
  })

  it("a claimed gift's refund request: staff see who holds it; the recipient and the giver are told what it ended", async () => {
    const { buyer, course, recipientEmail, orderId } = await buyGift({ offset: 8, method: 'bank_transfer' })
    const token = tokenIn((await giftMails(recipientEmail))[0]!.text_body)
    const recipient = await createUser(db(), { email: recipientEmail, firstName: 'Rae' })
    await (await caller(recipient)).gifts.claim({ token })
    const { order_item_id: lineId, claimed_at: claimedAt } = await db()
      .selectFrom('gifts')
      .select(['order_item_id', 'claimed_at'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    await (await caller(buyer)).purchases.requestRefund({ lineId, reason: 'They did not want it' })

    const staff = await caller(admin)
    const request = (await staff.admin.orders.requests()).find((row) => row.orderId === orderId)!
    expect(request.gift).toEqual({ recipientEmail, claimedAt: claimedAt!.toISOString() })
    await staff.admin.orders.decideRequest({ requestId: request.id, decision: 'approve', reference: 'BANK-GIFT-1' })
    expect(await owned(recipient)).not.toContain(course.id)

    const ended = await mailsOf(recipientEmail, 'gift_refunded')
    expect(ended).toHaveLength(1)
    expect(ended[0]!.subject).toBe(`Your gift "${course.title}" has ended`)
    expect(ended[0]!.text_body).toContain('Gil Giver asked for their money back and it was refunded to them')
    expect(ended[0]!.text_body).toContain('It is no longer available in your account.')
    const answer = await mailsOf(buyer.email, 'refund_request_approved')
    expect(answer[0]!.text_body).toContain(`The gift is cancelled and ${recipientEmail} no longer has the course`)
    expect(answer[0]!.text_body).not.toContain('no longer available in your account')
  })

  it("an unclaimed gift's request says so to staff; the giver hears its link is dead; nobody else is mailed", async () => {
    const { buyer, recipientEmail, orderId } = await buyGift({ offset: 9, method: 'bank_transfer' })
    const { order_item_id: lineId } = await db()
      .selectFrom('gifts')
      .select('order_item_id')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    await (await caller(buyer)).purchases.requestRefund({ lineId, reason: 'Changed my mind' })
    const staff = await caller(admin)
    const request = (await staff.admin.orders.requests()).find((row) => row.orderId === orderId)!
    expect(request.gift).toEqual({ recipientEmail, claimedAt: null })
    await staff.admin.orders.decideRequest({ requestId: request.id, decision: 'approve', reference: 'BANK-GIFT-2' })
    expect(await mailsOf(recipientEmail, 'gift_refunded')).toEqual([])
    const answer = await mailsOf(buyer.email, 'refund_request_approved')
    expect(answer[0]!.text_body).toContain(`The gift is cancelled: ${recipientEmail} can no longer claim it.`)
  })

  it("the buyer's order history and receipt say whom the gift is for", async () => {
    const { buyer, recipientEmail, orderId } = await buyGift({ offset: 2, method: 'bank_transfer' })
    const [order] = await (await caller(buyer)).purchases.orders()
    expect(order!.id).toBe(orderId)
    expect(order!.items[0]!.gift).toEqual({ recipientEmail, claimedAt: null })
    const [receipt] = await mailsOf(buyer.email, 'order_paid')
    expect(receipt!.subject).toContain(`your gift to ${recipientEmail}`)
    expect(receipt!.text_body).toContain(
      `This is your gift for ${recipientEmail}: we e-mail them a link to claim it now.`,
    )
  })

  it('a gift mailed to a verified address waits for that account: claimed without the link, by it only', async () => {
    const recipientEmail = newRecipient()
    // A new account signs up with the gift's address: its verification says a gift waits.
    const visitor = await shopCaller(db(), null, payments)
    await visitor.auth.signup({
      firstName: 'Nell',
      lastName: 'New',
      email: recipientEmail,
      password: 'long-enough-1!',
      acceptTerms: true,
    })
    const verifyMail = await mailsOf(recipientEmail, 'verify_email')
    const verifyToken = /\/verify-email\?token=([a-z0-9]+)/.exec(verifyMail[0]!.text_body)![1]!
    const { course } = await buyGift({ offset: 10, recipientEmail })
    // Not verified yet: nothing waits for an address nobody proved.
    const row = await db()
      .selectFrom('users')
      .select(SESSION_USER_COLUMNS)
      .where('email', '=', recipientEmail)
      .executeTakeFirstOrThrow()
    const asUser = { ...toSessionUser(row), password: '' }
    expect(await (await caller(asUser)).gifts.waiting()).toEqual([])
    expect(await visitor.auth.verifyEmail({ token: verifyToken, password: 'long-enough-1!' })).toMatchObject({
      giftWaiting: true,
    })

    const api = await caller(asUser)
    const waiting = await api.gifts.waiting()
    expect(waiting).toEqual([
      expect.objectContaining({ kind: 'course', title: course.title, from: 'Gil Giver', owned: false }),
    ])
    // Another account cannot claim it by its id.
    const stranger = await createUser(db())
    await expect((await caller(stranger)).gifts.claimWaiting({ giftId: waiting[0]!.id })).rejects.toThrow(
      GIFT_MESSAGES.notWaiting,
    )
    expect(await api.gifts.claimWaiting({ giftId: waiting[0]!.id })).toEqual({
      courseId: course.id,
      title: course.title,
    })
    expect(await owned(asUser)).toContain(course.id)
    expect(await api.gifts.waiting()).toEqual([])
    await expect(api.gifts.claimWaiting({ giftId: waiting[0]!.id })).rejects.toThrow(GIFT_MESSAGES.notWaiting)
  })

  it('a gift not sent yet (its date to come) or resent to another address does not wait for the first address', async () => {
    const recipient = await createUser(db(), { email: newRecipient() })
    const day = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)
    await buyGift({ offset: 11, method: 'bank_transfer', sendOn: day, recipientEmail: recipient.email })
    expect(await (await caller(recipient)).gifts.waiting()).toEqual([])

    const { buyer } = await buyGift({ offset: 12, recipientEmail: recipient.email })
    expect(await (await caller(recipient)).gifts.waiting()).toHaveLength(1)
    const gift = (await (await caller(buyer)).gifts.mine())[0]!
    await (await caller(buyer)).gifts.resend({ giftId: gift.id, recipientEmail: newRecipient() })
    expect(await (await caller(recipient)).gifts.waiting()).toEqual([])
  })
})

describe('a gift follows its recipient to a new address (decision 0163)', () => {
  /** The recipient moves their account to `newEmail` the way My Account does it: asked, then the mailed link opened. */
  async function move(user: TestUser, newEmail: string) {
    await (await caller(user)).profile.requestEmailChange({ newEmail, password: user.password })
    const mail = await latestMailTo(db(), newEmail, 'change_email')
    const token = /\/change-email\?token=([a-z0-9]+)/.exec(mail!.text_body)![1]!
    await (await shopCaller(db(), null, payments)).profile.confirmEmailChange({ token })
  }

  it('a mailed, unclaimed gift waits for the moved account at its new address, not for whoever takes the old one', async () => {
    const recipient = await createUser(db(), { email: newRecipient() })
    const oldAddress = recipient.email
    const { buyer, course } = await buyGift({ offset: 13, recipientEmail: oldAddress })
    await move(recipient, newRecipient())

    const waiting = await (await caller(recipient)).gifts.waiting()
    expect(waiting).toEqual([expect.objectContaining({ kind: 'course', title: course.title })])
    // The old address is free again; the person who takes it finds nothing and cannot claim it by its id.
    const newcomer = await createUser(db(), { email: oldAddress })
    expect(await (await caller(newcomer)).gifts.waiting()).toEqual([])
    await expect((await caller(newcomer)).gifts.claimWaiting({ giftId: waiting[0]!.id })).rejects.toThrow(
      GIFT_MESSAGES.notWaiting,
    )
    expect(await (await caller(recipient)).gifts.claimWaiting({ giftId: waiting[0]!.id })).toEqual({
      courseId: course.id,
      title: course.title,
    })
    expect(await owned(recipient)).toContain(course.id)
    // The giver's record keeps the address they typed: the recipient's new address is not theirs to learn.
    expect((await (await caller(buyer)).gifts.mine())[0]).toMatchObject({ recipientEmail: oldAddress })
  })

  it('a gift due later is mailed to the new address at its date; sent elsewhere by the giver, it follows no more', async () => {
    const recipient = await createUser(db(), { email: newRecipient() })
    const oldAddress = recipient.email
    const newAddress = newRecipient()
    const day = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)
    const { buyer } = await buyGift({ offset: 14, method: 'bank_transfer', sendOn: day, recipientEmail: oldAddress })
    await move(recipient, newAddress)

    advanceClock(4 * 24 * 60 * 60 * 1000)
    expect(await sendDueGifts(db())).toBeGreaterThanOrEqual(1)
    expect(await giftMails(oldAddress)).toEqual([])
    expect(await giftMails(newAddress)).toHaveLength(1)
    expect(await (await caller(recipient)).gifts.waiting()).toHaveLength(1)

    // The giver resends to the address they know: it still reaches the account that moved.
    const gift = (await (await caller(buyer)).gifts.mine())[0]!
    await (await caller(buyer)).gifts.resend({ giftId: gift.id, recipientEmail: oldAddress })
    expect(await giftMails(oldAddress)).toEqual([])
    expect(await giftMails(newAddress)).toHaveLength(2)
    // Sent to someone else, it is theirs to claim.
    const someoneElse = await createUser(db(), { email: newRecipient() })
    await (await caller(buyer)).gifts.resend({ giftId: gift.id, recipientEmail: someoneElse.email })
    expect(await giftMails(someoneElse.email)).toHaveLength(1)
    expect(await (await caller(recipient)).gifts.waiting()).toEqual([])
    expect(await (await caller(someoneElse)).gifts.waiting()).toHaveLength(1)
  })

  it('an account that never proved its address takes no gift with it when it moves', async () => {
    const unproven = await createUser(db(), { email: newRecipient(), emailVerified: false })
    const address = unproven.email
    await buyGift({ offset: 15, recipientEmail: address })
    await move(unproven, newRecipient())
    expect(await (await caller(unproven)).gifts.waiting()).toEqual([])
    // Whoever proves the address now is the one the giver wrote to.
    const owner = await createUser(db(), { email: address })
    expect(await (await caller(owner)).gifts.waiting()).toHaveLength(1)
  })
})

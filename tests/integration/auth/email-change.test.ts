// Moving an account to another e-mail address (decision 0157), through the routers on a real database: asked with a
// fresh proof, a link mailed to the new address, the account moved only when the link is used, the old address told.
import { TRPCError } from '@trpc/server'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CONFIRM_MAIL_KIND } from '../../../src-server/auth/confirm-action.ts'
import { authenticateWithPassword } from '../../../src-server/auth/login.ts'
import { SECURITY_MAIL_KINDS } from '../../../src-server/auth/security-mails.ts'
import { EMAIL_CHANGE_MESSAGES, syncStripeCustomerEmails } from '../../../src-server/flows/email-change.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createStripeApi } from '../../../src-server/payments/stripe.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createMemoryLimiter } from '../../../src-server/security/rate-limit.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createSessionToken, createUser, type TestUser, visitorCaller } from '../../support/factories.ts'
import { type FakeStripe, startFakeStripe } from '../../support/fake-stripe.ts'
import { trpcRefusal } from '../../support/outcome.ts'
import { raceIt, whileHeld } from '../../support/race.ts'

let database: DatabaseHandle
const db = () => database.db
const config = { ...defaultAppConfig, publicUrl: 'http://shop.test' }

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})
afterEach(() => resetClock())

/** The person's own caller, with its own rate-limit counters. */
async function signedIn(user: TestUser) {
  const { session } = await createSessionToken(db(), user.id)
  return createCaller(
    createContextInner({ db: db(), user, session, config, limiter: createMemoryLimiter(), clientIp: '203.0.113.9' }),
  )
}

/** Whoever opens the mailed link: any browser, signed in or not. */
const opener = () => visitorCaller(db(), config, '198.51.100.4')

const unique = () => Math.random().toString(36).slice(2, 8)

async function changeLinkTo(address: string) {
  const mail = await latestMailTo(db(), address, 'change_email')
  const token = /\/change-email\?token=([a-z0-9]+)/.exec(mail?.text_body ?? '')?.[1]
  if (!token) throw new Error(`no change link mailed to ${address}`)
  return token
}

const addressOf = async (user: { id: string }) =>
  db().selectFrom('users').select(['email', 'email_verified']).where('id', '=', user.id).executeTakeFirstOrThrow()

const refusal = trpcRefusal

describe('moving an account to another e-mail address', () => {
  it('mails a link to the new address, moves the account only when it is opened, and tells the old address', async () => {
    const user = await createUser(db(), { email: `ada-${unique()}@example.test`, password: 'first-pass-1!' })
    const newAddress = `Ada.New-${unique()}@Example.test`
    const me = await signedIn(user)

    const asked = await me.profile.requestEmailChange({ newEmail: newAddress, password: 'first-pass-1!' })
    expect(asked.message).toBe(EMAIL_CHANGE_MESSAGES.sent(newAddress))
    // Nothing moved yet: the old address still signs in; the page shows the link waiting.
    expect(await addressOf(user)).toEqual({ email: user.email, email_verified: true })
    expect((await me.profile.emailChange()).pending?.email).toBe(newAddress)
    const token = await changeLinkTo(newAddress)

    const moved = await opener().profile.confirmEmailChange({ token })
    expect(moved.message).toBe(EMAIL_CHANGE_MESSAGES.done(newAddress))
    expect(await addressOf(user)).toEqual({ email: newAddress, email_verified: true })
    expect(await authenticateWithPassword(db(), newAddress.toLowerCase(), 'first-pass-1!')).toMatchObject({
      id: user.id,
    })
    expect(await authenticateWithPassword(db(), user.email, 'first-pass-1!')).toBeNull()
    expect((await me.profile.emailChange()).pending).toBeNull()

    // The old address is told where the account went, in part only, with no link that carries a token.
    const notice = await latestMailTo(db(), user.email, SECURITY_MAIL_KINDS.emailChanged)
    expect(notice?.text_body).toContain(`changed to Ad•••@Example.test`)
    expect(notice?.text_body).not.toContain(newAddress)
    expect(notice?.text_body).not.toContain('token=')

    // The link works once.
    const again = await refusal(opener().profile.confirmEmailChange({ token }))
    expect(again.message).toBe(EMAIL_CHANGE_MESSAGES.badLink)
  })

  it('asks for the password first: a wrong one mails nothing, and the same address is no change', async () => {
    const user = await createUser(db(), { email: `grace-${unique()}@example.test`, password: 'right-pass-1!' })
    const newAddress = `grace-new-${unique()}@example.test`
    const me = await signedIn(user)
    const wrong = await refusal(me.profile.requestEmailChange({ newEmail: newAddress, password: 'wrong-pass-1!' }))
    expect(wrong.message).toBe('That password is not right.')
    expect(await latestMailTo(db(), newAddress)).toBeUndefined()
    const none = await refusal(me.profile.requestEmailChange({ newEmail: newAddress }))
    expect(none.message).toMatch(/Enter your password/)

    const same = await refusal(
      me.profile.requestEmailChange({ newEmail: user.email.toUpperCase(), password: 'right-pass-1!' }),
    )
    expect(same.message).toBe(EMAIL_CHANGE_MESSAGES.sameAddress)
    expect(same.code).toBe('BAD_REQUEST')
    // A visitor can neither ask, nor read, nor cancel anyone's change: each acts on the signed-in account only.
    const visitor = await refusal(opener().profile.requestEmailChange({ newEmail: newAddress, password: 'x' }))
    expect(visitor.code).toBe('UNAUTHORIZED')
    expect((await refusal(opener().profile.emailChange())).code).toBe('UNAUTHORIZED')
    expect((await refusal(opener().profile.cancelEmailChange())).code).toBe('UNAUTHORIZED')
  })

  it('answers the same for an address that has an account, which gets a mail saying nothing moved', async () => {
    const user = await createUser(db(), { email: `alan-${unique()}@example.test`, password: 'alan-pass-1!' })
    const other = await createUser(db(), { email: `taken-${unique()}@example.test` })
    const me = await signedIn(user)
    const asked = await me.profile.requestEmailChange({ newEmail: other.email, password: 'alan-pass-1!' })
    expect(asked.message).toBe(EMAIL_CHANGE_MESSAGES.sent(other.email))
    expect(await latestMailTo(db(), other.email, 'change_email')).toBeUndefined()
    expect((await latestMailTo(db(), other.email, 'change_email_taken'))?.text_body).toContain('nothing changed')
    // The page says the same as for a free address: it tells the asker nothing about whose the address is.
    expect((await me.profile.emailChange()).pending?.email).toBe(other.email)
    expect((await addressOf(user)).email).toBe(user.email)
  })

  it('refuses a link whose address got an account meanwhile, and keeps the link for nothing else', async () => {
    const user = await createUser(db(), { email: `kurt-${unique()}@example.test`, password: 'kurt-pass-1!' })
    const newAddress = `kurt-new-${unique()}@example.test`
    await (await signedIn(user)).profile.requestEmailChange({ newEmail: newAddress, password: 'kurt-pass-1!' })
    const token = await changeLinkTo(newAddress)
    const squatter = await createUser(db(), { email: newAddress.toUpperCase(), emailVerified: false })

    const refused = await refusal(opener().profile.confirmEmailChange({ token }))
    expect(refused.message).toBe(EMAIL_CHANGE_MESSAGES.taken)
    expect(refused.code).toBe('CONFLICT')
    expect((await addressOf(user)).email).toBe(user.email)
    expect((await addressOf(squatter)).email).toBe(newAddress.toUpperCase())
  })

  it('ends the reset links and codes mailed to the old address, and only the newest change link works', async () => {
    const user = await createUser(db(), { email: `emmy-${unique()}@example.test`, password: 'emmy-pass-1!' })
    await opener().auth.requestPasswordReset({ email: user.email })
    const resetMail = await latestMailTo(db(), user.email, 'reset_password')
    const resetToken = /reset-password\?token=([a-z0-9]+)/.exec(resetMail?.text_body ?? '')?.[1] as string
    const me = await signedIn(user)
    const first = `emmy-one-${unique()}@example.test`
    const second = `emmy-two-${unique()}@example.test`
    await me.profile.requestEmailChange({ newEmail: first, password: 'emmy-pass-1!' })
    const firstToken = await changeLinkTo(first)
    await me.profile.requestEmailChange({ newEmail: second, password: 'emmy-pass-1!' })
    expect((await refusal(opener().profile.confirmEmailChange({ token: firstToken }))).message).toBe(
      EMAIL_CHANGE_MESSAGES.badLink,
    )
    await opener().profile.confirmEmailChange({ token: await changeLinkTo(second) })
    expect((await addressOf(user)).email).toBe(second)
    // A link cancelled from the account page stops working; the address stays.
    const third = `emmy-three-${unique()}@example.test`
    await me.profile.requestEmailChange({ newEmail: third, password: 'emmy-pass-1!' })
    expect((await me.profile.cancelEmailChange()).message).toBe(EMAIL_CHANGE_MESSAGES.cancelled)
    expect((await me.profile.emailChange()).pending).toBeNull()
    expect((await refusal(opener().profile.confirmEmailChange({ token: await changeLinkTo(third) }))).message).toBe(
      EMAIL_CHANGE_MESSAGES.badLink,
    )
    expect((await addressOf(user)).email).toBe(second)
    // Whoever reads the old mailbox from now on cannot set the password with the link sent there before.
    const reset = await refusal(opener().auth.resetPassword({ token: resetToken, password: 'taken-over-1!' }))
    expect(reset.code).toBe('BAD_REQUEST')
    expect(await authenticateWithPassword(db(), second, 'emmy-pass-1!')).toMatchObject({ id: user.id })
  })

  it('lets a link expire after an hour', async () => {
    const user = await createUser(db(), { email: `hedy-${unique()}@example.test`, password: 'hedy-pass-1!' })
    const newAddress = `hedy-new-${unique()}@example.test`
    await (await signedIn(user)).profile.requestEmailChange({ newEmail: newAddress, password: 'hedy-pass-1!' })
    const token = await changeLinkTo(newAddress)
    await advanceClock(61 * 60)
    expect((await refusal(opener().profile.confirmEmailChange({ token }))).message).toBe(EMAIL_CHANGE_MESSAGES.badLink)
    expect((await addressOf(user)).email).toBe(user.email)
  })

  it('confirms an account without a password with a code mailed to its current address', async () => {
    const user = await createUser(db(), { email: `oauth-${unique()}@example.test` })
    await db().updateTable('users').set({ password_hash: null }).where('id', '=', user.id).execute()
    const me = await signedIn(user)
    expect((await me.profile.emailChange()).confirm).toEqual({ hasPassword: false, hasTwoFactor: false })
    const newAddress = `oauth-new-${unique()}@example.test`
    await me.privacy.sendConfirmationCode({ action: 'change-email' })
    const codeMail = await latestMailTo(db(), user.email, CONFIRM_MAIL_KIND)
    expect(codeMail?.text_body).toContain('move your account to another e-mail address')
    const code = /^ {2}Code: ([a-z2-7]{13})$/m.exec(codeMail?.text_body ?? '')?.[1] as string
    await me.profile.requestEmailChange({ newEmail: newAddress, code })
    await opener().profile.confirmEmailChange({ token: await changeLinkTo(newAddress) })
    expect((await addressOf(user)).email).toBe(newAddress)
  })

  raceIt('lets one of two accounts moving to one address at once have it, and tells the other why', async () => {
    const target = `both-${unique()}@example.test`
    const tokens: string[] = []
    const movers: string[] = []
    for (const name of ['one', 'two']) {
      const user = await createUser(db(), { email: `${name}-${unique()}@example.test`, password: 'both-pass-1!' })
      await (await signedIn(user)).profile.requestEmailChange({ newEmail: target, password: 'both-pass-1!' })
      tokens.push(await changeLinkTo(target))
      movers.push(user.id)
    }
    // Both accounts' rows are held until both links wait to write: each has used its link and read the address as free.
    const outcomes = await whileHeld(
      db(),
      (trx) => trx.selectFrom('users').select('id').where('id', 'in', movers).forUpdate().execute(),
      () => Promise.allSettled(tokens.map((token) => opener().profile.confirmEmailChange({ token }))),
      { waiters: 2 },
    )
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
    const lost = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult
    expect(lost.reason).toBeInstanceOf(TRPCError)
    expect((lost.reason as TRPCError).message).toBe(EMAIL_CHANGE_MESSAGES.taken)
    expect(await db().selectFrom('users').select('id').where('email', '=', target).execute()).toHaveLength(1)
  })
})

describe('the Stripe customers of a moved account', () => {
  let fake: FakeStripe
  beforeAll(async () => {
    fake = await startFakeStripe()
  }, 120_000)
  afterAll(async () => {
    await fake.close()
  })
  const errors: unknown[] = []
  const sync = (withStripe = true) =>
    syncStripeCustomerEmails({
      db: db(),
      stripe: withStripe ? createStripeApi({ secretKey: fake.secretKey, apiUrl: fake.url }) : null,
      log: { error: (entry) => void errors.push(entry) },
    })
  /** A plan of the person's billed to this Stripe customer (`ended`: cancelled since). */
  const billedPlan = (user: { id: string }, customerId: string, ended = false) =>
    db()
      .insertInto('subscriptions')
      .values({
        user_id: user.id,
        plan_id: 'basic',
        billing_cycle: 'monthly',
        status: ended ? 'cancelled' : 'active',
        ended_at: ended ? new Date() : null,
        stripe_customer_id: customerId,
      })
      .execute()
  /** Asks to move with the password and opens the link mailed to the new address. */
  const move = async (user: TestUser, password: string, newAddress: string) => {
    await (await signedIn(user)).profile.requestEmailChange({ newEmail: newAddress, password })
    await opener().profile.confirmEmailChange({ token: await changeLinkTo(newAddress) })
  }
  const dueAt = async (user: { id: string }) =>
    (await db().selectFrom('users').select('stripe_email_due_at').where('id', '=', user.id).executeTakeFirstOrThrow())
      .stripe_email_due_at

  it('get the new address after the move; a Stripe outage is retried by the next run', async () => {
    const user = await createUser(db(), { email: `member-${unique()}@example.test`, password: 'member-pass-1!' })
    const customer = fake.billing.customerFor(user.email)
    await billedPlan(user, customer.id)
    const newAddress = `member-new-${unique()}@example.test`
    await (await signedIn(user)).profile.requestEmailChange({ newEmail: newAddress, password: 'member-pass-1!' })
    expect(await dueAt(user)).toBeNull()
    await opener().profile.confirmEmailChange({ token: await changeLinkTo(newAddress) })
    expect(await dueAt(user)).not.toBeNull()

    // Without Stripe configured it waits; with Stripe failing, the next run does it.
    await sync(false)
    expect(await dueAt(user)).not.toBeNull()
    fake.failNextCustomerWrite()
    expect((await sync()).failed).toBeGreaterThanOrEqual(1)
    expect(fake.billing.customers.get(customer.id)?.email).toBe(user.email)
    expect(await dueAt(user)).not.toBeNull()
    await sync()
    expect(fake.billing.customers.get(customer.id)?.email).toBe(newAddress)
    expect(await dueAt(user)).toBeNull()
    const calls = fake.calls.filter((call) => call === `POST /v1/customers/${customer.id}`).length
    await sync()
    expect(fake.calls.filter((call) => call === `POST /v1/customers/${customer.id}`)).toHaveLength(calls)
  })

  it('count a customer Stripe no longer knows as done, and mark an account without one at once', async () => {
    const user = await createUser(db(), { email: `former-${unique()}@example.test`, password: 'former-pass-1!' })
    await billedPlan(user, `cus_test_gone_${unique()}`, true)
    const plain = await createUser(db(), { email: `plain-${unique()}@example.test`, password: 'plain-pass-1!' })
    await move(user, 'former-pass-1!', `moved-${unique()}@example.test`)
    await move(plain, 'plain-pass-1!', `moved-${unique()}@example.test`)
    await sync(false)
    expect(await dueAt(plain)).toBeNull()
    expect(await dueAt(user)).not.toBeNull()
    await sync()
    expect(await dueAt(user)).toBeNull()
  })
})

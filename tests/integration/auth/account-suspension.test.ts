// Staff suspend an account (decision 0160) or sign it out everywhere (decision 0162), through the routers on a real database: its sessions end and open nothing,
// no way in makes a new one (the password, the code step, a session made however), its API keys stop, the person is
// mailed the reason, the audit log names the admin; lifting it lets the person back in. Staff accounts, lower roles, a
// short reason and a second suspension are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPendingLogin } from '../../../src-server/auth/pending-login.ts'
import { SECURITY_MAIL_KINDS } from '../../../src-server/auth/security-mails.ts'
import { createSession, validateSessionToken } from '../../../src-server/auth/session.ts'
import { SUSPENSION_MAIL_KINDS, SUSPENSION_MESSAGES } from '../../../src-server/flows/account-suspension.ts'
import { authenticateApiKey } from '../../../src-server/flows/school-api-keys.ts'
import { STAFF_SIGN_OUT_MESSAGES } from '../../../src-server/flows/staff-sign-out.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { AUTH_MESSAGES } from '../../../src-shared/auth.ts'
import { buyPlan, createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createSessionToken, createUser, visitorCaller } from '../../support/factories.ts'
import { trpcRefusal } from '../../support/outcome.ts'

let database: DatabaseHandle
const db = () => database.db
const config = { ...defaultAppConfig, publicUrl: 'http://shop.test' }
const REASON = 'Three chargebacks on cards that were not yours.'

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

/** A browser that is not signed in, with its own rate-limit counters. */
const visitor = () => visitorCaller(db(), config)

const admin = async () => callerAs(db(), await createUser(db(), { role: 'admin' }))

const refusal = trpcRefusal

const sessionsOf = async (userId: string) =>
  (await db().selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length
const pendingLoginsOf = async (userId: string) =>
  (await db().selectFrom('pending_logins').select('id').where('user_id', '=', userId).execute()).length

describe('suspending an account', () => {
  it('ends its sessions, refuses every way in, mails the reason, and lets it back in when lifted', async () => {
    const customer = await createUser(db(), { password: 'their-pass-1!' })
    const before = await createSessionToken(db(), customer.id)
    await createPendingLogin(db(), customer.id, false)
    const admins = await admin()

    const done = await admins.admin.customers.suspend({ customerId: customer.id, reason: `  ${REASON} ` })
    expect(done.message).toBe(SUSPENSION_MESSAGES.suspended)
    expect(done.suspension).toMatchObject({ reason: REASON })
    expect(await validateSessionToken(db(), before.token)).toBeNull()
    expect(await sessionsOf(customer.id)).toBe(0)
    expect(await pendingLoginsOf(customer.id)).toBe(0)
    expect((await latestMailTo(db(), customer.email, SUSPENSION_MAIL_KINDS.suspended))?.text_body).toContain(REASON)
    expect((await admins.admin.customers.find({ customer: customer.email }))?.suspension).toMatchObject({
      reason: REASON,
    })

    // The password is right, and still no session: the refusal says why (only after the password was proven).
    const login = await refusal(
      visitor().auth.login({ email: customer.email, password: 'their-pass-1!', remember: false }),
    )
    expect(login.code).toBe('FORBIDDEN')
    expect(login.message).toBe(AUTH_MESSAGES.accountSuspended)
    const wrong = await refusal(
      visitor().auth.login({ email: customer.email, password: 'not-theirs-1!', remember: false }),
    )
    expect(wrong.message).not.toBe(AUTH_MESSAGES.accountSuspended)
    expect(await sessionsOf(customer.id)).toBe(0)
    expect(await pendingLoginsOf(customer.id)).toBe(0)
    // A session made however (a sign-in that raced the suspension) opens nothing while it lasts.
    const raced = await createSession(db(), customer.id)
    expect(await validateSessionToken(db(), raced.token)).toBeNull()

    const lifted = await admins.admin.customers.liftSuspension({ customerId: customer.id })
    expect(lifted).toEqual({ message: SUSPENSION_MESSAGES.lifted, suspension: null })
    expect(await latestMailTo(db(), customer.email, SUSPENSION_MAIL_KINDS.lifted)).toBeDefined()
    expect(await validateSessionToken(db(), raced.token)).not.toBeNull()
    await visitor().auth.login({ email: customer.email, password: 'their-pass-1!', remember: false })
    expect(await sessionsOf(customer.id)).toBe(2)
    const again = await refusal(admins.admin.customers.liftSuspension({ customerId: customer.id }))
    expect(again.code).toBe('CONFLICT')
    expect(again.message).toBe(SUSPENSION_MESSAGES.notSuspended)

    const entries = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', customer.id)
      .where('action', 'in', ['customer.suspended', 'customer.unsuspended'])
      .orderBy('created_at')
      .execute()
    expect(entries.map((entry) => entry.action)).toEqual(['customer.suspended', 'customer.unsuspended'])
  })

  it('refuses an account with a second factor at its password, before any code step', async () => {
    const customer = await createUser(db(), { password: 'their-pass-1!' })
    await db()
      .insertInto('user_totp')
      .values({ user_id: customer.id, secret: 'test', confirmed_at: new Date() })
      .execute()
    await (await admin()).admin.customers.suspend({ customerId: customer.id, reason: REASON })
    const login = await refusal(
      visitor().auth.login({ email: customer.email, password: 'their-pass-1!', remember: false }),
    )
    expect(login.message).toBe(AUTH_MESSAGES.accountSuspended)
    // No half-finished log-in waits for a code it could never finish.
    expect(await pendingLoginsOf(customer.id)).toBe(0)
  })

  it('sets a plan that would charge again to end at its period’s end, as an admin would from its order', async () => {
    const member = await createUser(db())
    await buyPlan(db(), member, 'pro')
    const planOf = () =>
      db()
        .selectFrom('subscriptions')
        .select(['id', 'cancel_at_period_end', 'ended_at'])
        .where('user_id', '=', member.id)
        .executeTakeFirstOrThrow()
    const { id } = await planOf()
    expect(await planOf()).toEqual({ id, cancel_at_period_end: false, ended_at: null })
    const done = await (await admin()).admin.customers.suspend({ customerId: member.id, reason: REASON })
    expect(done.message).toBe(SUSPENSION_MESSAGES.suspended + SUSPENSION_MESSAGES.renewalsStopped)
    expect(await planOf()).toEqual({ id, cancel_at_period_end: true, ended_at: null })
    const ended = await db().selectFrom('audit_log').select('action').where('entity_id', '=', id).execute()
    expect(ended.map((entry) => entry.action)).toEqual(['membership.end_at_period_end'])

    // Lifted, the plan is not restarted (the card may be why): the member is told how to keep it, and staff that
    // they were.
    const lifted = await (await admin()).admin.customers.liftSuspension({ customerId: member.id })
    expect(lifted.message).toBe(SUSPENSION_MESSAGES.lifted + SUSPENSION_MESSAGES.plansToResume(1))
    expect(await planOf()).toEqual({ id, cancel_at_period_end: true, ended_at: null })
    const mail = await latestMailTo(db(), member.email, SUSPENSION_MAIL_KINDS.lifted)
    expect(mail?.text_body).toMatch(
      /Your \w+ membership was set to end on .+ when your account was suspended\. To keep it, resume it before then: \S+\/account\/membership/,
    )
    // The member can resume it.
    await (await callerAs(db(), member)).membership.resume()
    expect(await planOf()).toEqual({ id, cancel_at_period_end: false, ended_at: null })
  })

  it('stops the API keys the account holds', async () => {
    const owner = await createCreator(db(), { plan: 'enterprise' })
    const made = await (await callerAs(db(), owner)).apiKeys.create({
      name: 'Sync',
      scopes: ['courses:read'],
      expiresInDays: 30,
      password: owner.password,
    })
    expect((await authenticateApiKey(db(), `Bearer ${made.key}`)).keyId).toBe(made.id)
    const admins = await admin()
    await admins.admin.customers.suspend({ customerId: owner.id, reason: REASON })
    await expect(authenticateApiKey(db(), `Bearer ${made.key}`)).rejects.toThrow(
      'The account that holds this API key is suspended',
    )
    await admins.admin.customers.liftSuspension({ customerId: owner.id })
    expect((await authenticateApiKey(db(), `Bearer ${made.key}`)).keyId).toBe(made.id)
  })

  it('refuses a staff account, a second suspension, a short reason, an unknown account and roles below admin', async () => {
    const admins = await admin()
    const customer = await createUser(db())
    const colleague = await createUser(db(), { role: 'editor' })
    const staffAccount = await refusal(admins.admin.customers.suspend({ customerId: colleague.id, reason: REASON }))
    expect(staffAccount.code).toBe('FORBIDDEN')
    expect(staffAccount.message).toBe(SUSPENSION_MESSAGES.staffAccount)

    const short = await refusal(admins.admin.customers.suspend({ customerId: customer.id, reason: 'spam' }))
    expect(short.code).toBe('BAD_REQUEST')
    const unknown = await refusal(admins.admin.customers.suspend({ customerId: crypto.randomUUID(), reason: REASON }))
    expect(unknown.code).toBe('NOT_FOUND')
    for (const role of ['viewer', 'editor'] as const) {
      const lower = await callerAs(db(), await createUser(db(), { role }))
      expect((await refusal(lower.admin.customers.suspend({ customerId: customer.id, reason: REASON }))).code).toBe(
        'FORBIDDEN',
      )
    }
    expect(await latestMailTo(db(), customer.email)).toBeUndefined()

    await admins.admin.customers.suspend({ customerId: customer.id, reason: REASON })
    const twice = await refusal(admins.admin.customers.suspend({ customerId: customer.id, reason: REASON }))
    expect(twice.code).toBe('CONFLICT')
    expect(twice.message).toBe(SUSPENSION_MESSAGES.already)
  })
})

describe('signing a customer out everywhere (decision 0162)', () => {
  it('ends their sessions and waiting log-ins, tells them, and lets them sign in again at once', async () => {
    const customer = await createUser(db(), { password: 'their-pass-1!' })
    const phone = await createSessionToken(db(), customer.id)
    await createSessionToken(db(), customer.id)
    await createPendingLogin(db(), customer.id, false)
    const admins = await admin()
    expect((await admins.admin.customers.find({ customer: customer.email }))?.signIns.devices).toBe(2)

    const done = await admins.admin.customers.signOutEverywhere({ customerId: customer.id })
    expect(done).toEqual({ message: STAFF_SIGN_OUT_MESSAGES.done, signIns: { devices: 0, lastActiveAt: null } })
    expect(await validateSessionToken(db(), phone.token)).toBeNull()
    expect(await sessionsOf(customer.id)).toBe(0)
    expect(await pendingLoginsOf(customer.id)).toBe(0)
    const notice = await latestMailTo(db(), customer.email, SECURITY_MAIL_KINDS.signedOutByStaff)
    expect(notice?.text_body).toContain('signed out on every device')
    const audited = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', customer.id)
      .where('action', '=', 'customer.signed_out')
      .execute()
    expect(audited).toHaveLength(1)

    await visitor().auth.login({ email: customer.email, password: 'their-pass-1!', remember: false })
    expect(await sessionsOf(customer.id)).toBe(1)
  })

  it('refuses a staff account and roles below admin', async () => {
    const colleague = await createUser(db(), { role: 'viewer' })
    const session = await createSessionToken(db(), colleague.id)
    const staff = await refusal((await admin()).admin.customers.signOutEverywhere({ customerId: colleague.id }))
    expect(staff.message).toBe(STAFF_SIGN_OUT_MESSAGES.staffAccount)
    const editors = await callerAs(db(), await createUser(db(), { role: 'editor' }))
    const customer = await createUser(db())
    expect((await refusal(editors.admin.customers.signOutEverywhere({ customerId: customer.id }))).code).toBe(
      'FORBIDDEN',
    )
    expect(await validateSessionToken(db(), session.token)).not.toBeNull()
  })
})

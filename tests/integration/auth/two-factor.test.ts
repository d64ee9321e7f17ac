// Two-factor sign-in (issue 28): enrolment, the code step of a log-in over HTTP (JSON and the native form), no replay
// of a used code, recovery codes once, the lock after ten wrong codes, secrets never returned after enrolment, the
// staff requirement, and the sessions list (only one's own sessions can be ended).
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateHOTP } from '@oslojs/otp'
import { describe, expect, it } from 'vitest'
import { createPendingLogin, PENDING_LOGIN_COOKIE } from '../../../src-server/auth/pending-login.ts'
import { SECURITY_MAIL_KINDS } from '../../../src-server/auth/security-mails.ts'
import { SESSION_COOKIE, validateSessionToken } from '../../../src-server/auth/session.ts'
import { openTotpKey, totpStep } from '../../../src-server/auth/totp.ts'
import {
  confirmTotpEnrolment,
  startTotpEnrolment,
  TWO_FACTOR_LOCKOUT,
  TWO_FACTOR_MESSAGES,
  twoFactorStatus,
  verifySecondFactor,
} from '../../../src-server/auth/two-factor.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DB } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { AUTH_MESSAGES } from '../../../src-shared/auth.ts'
import { createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { cookiePair, setCookieFor, trpcPost } from '../../support/http.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()
const settings = { publicUrl: 'http://storefront.test' }

function codeAt(manualKey: string, step: number) {
  return generateHOTP(decodeBase32IgnorePadding(manualKey.replace(/ /g, '')), BigInt(step), 6)
}

/** A user with two-factor on; its key (as typed by hand), recovery codes and the step of the confirming code. */
async function enrolledUser(db: DB, now = new Date(), overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(db, overrides)
  const { manualKey, uri } = await startTotpEnrolment(db, user, settings)
  const step = totpStep(now)
  const recoveryCodes = await confirmTotpEnrolment(db, user.id, codeAt(manualKey, step), settings, now)
  return { user, manualKey, uri, recoveryCodes, step }
}

async function callerFor(db: DB, user: TestUser, config = defaultAppConfig) {
  const { session } = await createSessionToken(db, user.id)
  return { caller: createCaller(createContextInner({ db, user, session, config })), session }
}

describe('enrolment', () => {
  it('confirms with the first code, gives ten recovery codes once, and never returns the key again', async () => {
    const user = await createUser(site.db)
    const { caller } = await callerFor(site.db, user)
    // A session alone cannot start it: two-factor outlives a password reset, so it needs a fresh proof.
    await expect(caller.security.startTotp({})).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    await expect(caller.security.startTotp({ password: 'not-the-password' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    })
    const { uri, manualKey } = await caller.security.startTotp({ password: user.password })
    expect(uri).toMatch(/^otpauth:\/\/totp\/SkillForge:.+\?.*secret=[A-Z2-7]+/)
    await expect(caller.security.confirmTotp({ code: '000000' })).rejects.toMatchObject({
      message: TWO_FACTOR_MESSAGES.wrongCode,
    })
    expect((await caller.security.overview()).twoFactor.enabled).toBe(false)

    const { recoveryCodes } = await caller.security.confirmTotp({ code: codeAt(manualKey, totpStep(new Date())) })
    expect(recoveryCodes).toHaveLength(10)
    expect(new Set(recoveryCodes).size).toBe(10)
    const overview = await caller.security.overview()
    expect(overview.twoFactor).toMatchObject({ enabled: true, recoveryCodesLeft: 10 })
    const answer = JSON.stringify(overview)
    const secret = manualKey.replace(/ /g, '')
    expect(answer).not.toContain(secret)
    for (const code of recoveryCodes) expect(answer).not.toContain(code)
    await expect(caller.security.startTotp({ password: user.password })).rejects.toMatchObject({
      message: TWO_FACTOR_MESSAGES.alreadyOn,
    })
    await expect(caller.security.confirmTotp({ code: '123456' })).rejects.toMatchObject({
      message: TWO_FACTOR_MESSAGES.alreadyOn,
    })

    // Recovery codes are stored hashed only.
    const stored = await site.db
      .selectFrom('user_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute()
    expect(stored).toHaveLength(10)
    const storedText = JSON.stringify(stored.map((row) => Buffer.from(row.code_hash).toString('latin1')))
    for (const code of recoveryCodes) expect(storedText).not.toContain(code.replace('-', ''))
    expect((await latestMailTo(site.db, user.email, SECURITY_MAIL_KINDS.twoFactorOn))?.text_body).not.toContain(secret)
  })

  it('starting again replaces a key still waiting for its first code', async () => {
    const user = await createUser(site.db)
    const first = await startTotpEnrolment(site.db, user, settings)
    const second = await startTotpEnrolment(site.db, user, settings)
    expect(second.manualKey).not.toBe(first.manualKey)
    const now = new Date()
    await expect(
      confirmTotpEnrolment(site.db, user.id, codeAt(first.manualKey, totpStep(now)), settings, now),
    ).rejects.toMatchObject({ kind: 'invalid' })
    expect(
      await confirmTotpEnrolment(site.db, user.id, codeAt(second.manualKey, totpStep(now)), settings, now),
    ).toHaveLength(10)
  })

  it('is refused to an account without a password (it could not be turned off again)', async () => {
    const user = await createUser(site.db)
    await site.db.updateTable('users').set({ password_hash: null }).where('id', '=', user.id).execute()
    await expect(startTotpEnrolment(site.db, user, settings)).rejects.toMatchObject({
      kind: 'precondition',
      message: TWO_FACTOR_MESSAGES.needsPassword,
    })
  })

  it('seals the key with TWO_FACTOR_KEY when it is set', async () => {
    const user = await createUser(site.db)
    const encryptionKey = new Uint8Array(32).fill(7)
    const { manualKey } = await startTotpEnrolment(site.db, user, { ...settings, encryptionKey })
    const row = await site.db
      .selectFrom('user_totp')
      .select('secret')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(row.secret).toMatch(/^gcm:/)
    const key = decodeBase32IgnorePadding(manualKey.replace(/ /g, ''))
    expect(row.secret).not.toContain(Buffer.from(key).toString('base64'))
    expect(openTotpKey(row.secret, encryptionKey)).toEqual(key)
    expect(() => openTotpKey(row.secret, undefined)).toThrow()
    expect(() => openTotpKey(row.secret, new Uint8Array(32).fill(8))).toThrow()
  })

  it('turns off only with the right password and a code', async () => {
    const { user, manualKey } = await enrolledUser(site.db)
    const { caller } = await callerFor(site.db, user)
    const code = codeAt(manualKey, totpStep(new Date()) + 1)
    await expect(caller.security.disableTotp({ password: 'wrong-password-1', code })).rejects.toMatchObject({
      message: TWO_FACTOR_MESSAGES.wrongPassword,
    })
    await expect(caller.security.disableTotp({ password: user.password, code: '000000' })).rejects.toMatchObject({
      message: TWO_FACTOR_MESSAGES.wrongCode,
    })
    await caller.security.disableTotp({ password: user.password, code })
    expect(await twoFactorStatus(site.db, user.id)).toMatchObject({ enabled: false })
    expect(
      await site.db.selectFrom('user_recovery_codes').select('id').where('user_id', '=', user.id).execute(),
    ).toEqual([])
    expect(await latestMailTo(site.db, user.email, SECURITY_MAIL_KINDS.twoFactorOff)).toBeTruthy()
  })
})

describe('new recovery codes', () => {
  it('replace the old ones after the password and a code; never readable afterwards', async () => {
    const { user, manualKey, recoveryCodes } = await enrolledUser(site.db)
    const { caller } = await callerFor(site.db, user)
    await expect(
      caller.security.newRecoveryCodes({ password: 'wrong-password-1', code: recoveryCodes[0] ?? '' }),
    ).rejects.toMatchObject({ message: TWO_FACTOR_MESSAGES.wrongPassword })
    const { recoveryCodes: fresh } = await caller.security.newRecoveryCodes({
      password: user.password,
      code: codeAt(manualKey, totpStep(new Date()) + 1),
    })
    expect(fresh).toHaveLength(10)
    expect(fresh.some((code) => recoveryCodes.includes(code))).toBe(false)
    await expect(verifySecondFactor(site.db, user.id, recoveryCodes[1] ?? '', settings)).rejects.toMatchObject({
      kind: 'invalid',
    })
    expect(await verifySecondFactor(site.db, user.id, fresh[0] ?? '', settings)).toBe('recovery')
    const answer = JSON.stringify(await caller.security.overview())
    for (const code of fresh) expect(answer).not.toContain(code)
  })
})

describe('the code step', () => {
  it('never accepts a used code again within its window, nor an older one', async () => {
    const now = new Date()
    const { user, manualKey, step } = await enrolledUser(site.db, now)
    // The confirming code itself is used.
    await expect(verifySecondFactor(site.db, user.id, codeAt(manualKey, step), settings, now)).rejects.toMatchObject({
      kind: 'invalid',
    })
    expect(await verifySecondFactor(site.db, user.id, codeAt(manualKey, step + 1), settings, now)).toBe('totp')
    await expect(
      verifySecondFactor(site.db, user.id, codeAt(manualKey, step + 1), settings, now),
    ).rejects.toMatchObject({
      kind: 'invalid',
    })
    await expect(verifySecondFactor(site.db, user.id, codeAt(manualKey, step), settings, now)).rejects.toMatchObject({
      kind: 'invalid',
    })
    // Outside the window (two steps ahead) a code is refused too.
    await expect(
      verifySecondFactor(site.db, user.id, codeAt(manualKey, step + 3), settings, now),
    ).rejects.toMatchObject({
      kind: 'invalid',
    })
    const later = new Date(now.getTime() + 90_000)
    expect(await verifySecondFactor(site.db, user.id, codeAt(manualKey, totpStep(later)), settings, later)).toBe('totp')
  })

  it('accepts each recovery code once, however it is typed, and mails the owner', async () => {
    const { user, recoveryCodes } = await enrolledUser(site.db)
    const [first = '', second = ''] = recoveryCodes
    expect(await verifySecondFactor(site.db, user.id, first, settings)).toBe('recovery')
    await expect(verifySecondFactor(site.db, user.id, first, settings)).rejects.toMatchObject({ kind: 'invalid' })
    expect(await verifySecondFactor(site.db, user.id, ` ${second.replace('-', '').toUpperCase()} `, settings)).toBe(
      'recovery',
    )
    expect(await twoFactorStatus(site.db, user.id)).toMatchObject({ recoveryCodesLeft: 8 })
    expect((await latestMailTo(site.db, user.email, SECURITY_MAIL_KINDS.recoveryCodeUsed))?.text_body).toContain(
      '8 unused',
    )
    // Another account's code is no code here.
    const other = await enrolledUser(site.db)
    await expect(verifySecondFactor(site.db, user.id, other.recoveryCodes[0] ?? '', settings)).rejects.toMatchObject({
      kind: 'invalid',
    })
  })

  it('locks for 15 minutes after ten wrong codes, even for the right one', async () => {
    const now = new Date()
    const { user, manualKey, step, recoveryCodes } = await enrolledUser(site.db, now)
    for (let attempt = 1; attempt < TWO_FACTOR_LOCKOUT.maxFailures; attempt++) {
      await expect(verifySecondFactor(site.db, user.id, '000000', settings, now)).rejects.toMatchObject({
        kind: 'invalid',
      })
    }
    await expect(verifySecondFactor(site.db, user.id, 'aaaaa-aaaaa', settings, now)).rejects.toMatchObject({
      kind: 'rate_limited',
      message: TWO_FACTOR_MESSAGES.locked,
    })
    await expect(
      verifySecondFactor(site.db, user.id, codeAt(manualKey, step + 1), settings, now),
    ).rejects.toMatchObject({
      kind: 'rate_limited',
    })
    await expect(verifySecondFactor(site.db, user.id, recoveryCodes[0] ?? '', settings, now)).rejects.toMatchObject({
      kind: 'rate_limited',
    })
    const almost = new Date(now.getTime() + TWO_FACTOR_LOCKOUT.lockMs - 1000)
    await expect(verifySecondFactor(site.db, user.id, recoveryCodes[0] ?? '', settings, almost)).rejects.toMatchObject({
      kind: 'rate_limited',
    })
    const after = new Date(now.getTime() + TWO_FACTOR_LOCKOUT.lockMs + 1000)
    expect(await verifySecondFactor(site.db, user.id, codeAt(manualKey, totpStep(after)), settings, after)).toBe('totp')
  })
})

async function jsonOf(response: Response) {
  return (await response.json()) as { result?: { data: unknown }; error?: { message: string; data: { code: string } } }
}

/** A Set-Cookie line that deletes the cookie: empty, and expired or of no age. */
const CLEARED = /^login_pending=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i

describe('log-in with a second factor over HTTP', () => {
  it('the password step gives a pending log-in, not a session; the code step gives the session', async () => {
    const { user, manualKey, step } = await enrolledUser(site.db)
    const first = await trpcPost(site.baseUrl, 'auth.login', { email: user.email, password: user.password })
    expect(await jsonOf(first)).toMatchObject({ result: { data: { twoFactor: true } } })
    expect(setCookieFor(first, SESSION_COOKIE)).toBeUndefined()
    const pending = setCookieFor(first, PENDING_LOGIN_COOKIE)
    expect(pending).toMatch(/HttpOnly/i)
    expect(await site.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([])

    // Without the pending log-in's cookie a right code opens nothing.
    const alone = await trpcPost(site.baseUrl, 'auth.verifyTwoFactor', { code: codeAt(manualKey, step + 1) })
    expect((await jsonOf(alone)).error?.message).toBe(AUTH_MESSAGES.twoFactorExpired)
    expect(setCookieFor(alone, PENDING_LOGIN_COOKIE)).toBeUndefined()

    const wrong = await trpcPost(
      site.baseUrl,
      'auth.verifyTwoFactor',
      { code: '000000' },
      { cookie: cookiePair(pending) },
    )
    expect((await jsonOf(wrong)).error?.message).toBe(TWO_FACTOR_MESSAGES.wrongCode)
    expect(setCookieFor(wrong, PENDING_LOGIN_COOKIE)).toBeUndefined() // a wrong code keeps the step open
    const second = await trpcPost(
      site.baseUrl,
      'auth.verifyTwoFactor',
      { code: codeAt(manualKey, step + 1) },
      { cookie: cookiePair(pending), 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' },
    )
    expect(await jsonOf(second)).toMatchObject({ result: { data: { email: user.email } } })
    const session = setCookieFor(second, SESSION_COOKIE)
    expect(session).toMatch(/HttpOnly/i)
    // The pending log-in is spent.
    const again = await trpcPost(
      site.baseUrl,
      'auth.verifyTwoFactor',
      { code: '123456' },
      { cookie: cookiePair(pending) },
    )
    expect((await jsonOf(again)).error?.message).toBe(AUTH_MESSAGES.twoFactorExpired)
    expect(setCookieFor(again, PENDING_LOGIN_COOKIE)).toMatch(CLEARED)

    const me = await fetch(`${site.baseUrl}/trpc/security.overview`, { headers: { cookie: cookiePair(session) } })
    const overview = (await jsonOf(me)).result?.data as { sessions: { browser: string; network: string }[] }
    const sessions = overview.sessions
    expect(sessions).toEqual([
      expect.objectContaining({ browser: 'Firefox', system: 'Linux', network: '127.0.0.0/24' }),
    ])
  })

  it('clears the cookie of an expired pending log-in with its refusal, so it rides on no later request', async () => {
    const { user, manualKey, step } = await enrolledUser(site.db)
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000)
    const { token } = await createPendingLogin(site.db, user.id, false, elevenMinutesAgo)
    const late = await trpcPost(
      site.baseUrl,
      'auth.verifyTwoFactor',
      { code: codeAt(manualKey, step + 1) },
      { cookie: `${PENDING_LOGIN_COOKIE}=${token}` },
    )
    expect((await jsonOf(late)).error?.message).toBe(AUTH_MESSAGES.twoFactorExpired)
    expect(setCookieFor(late, PENDING_LOGIN_COOKIE)).toMatch(CLEARED)
    expect(setCookieFor(late, SESSION_COOKIE)).toBeUndefined()
  })

  it('the native forms: /login goes on to /two-factor, which signs in and goes back', async () => {
    const { user, recoveryCodes } = await enrolledUser(site.db)
    const post = (path: string, fields: Record<string, string>, cookie = '') =>
      fetch(`${site.baseUrl}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie },
        body: new URLSearchParams(fields).toString(),
      })
    const first = await post('/login?redirect=%2Fpricing', { email: user.email, password: user.password })
    expect(first.status).toBe(303)
    expect(first.headers.get('location')).toBe('/two-factor?redirect=%2Fpricing')
    expect(setCookieFor(first, SESSION_COOKIE)).toBeUndefined()
    const pending = cookiePair(setCookieFor(first, PENDING_LOGIN_COOKIE))

    const second = await post('/two-factor?redirect=%2Fpricing', { code: recoveryCodes[0] ?? '' }, pending)
    expect(second.status).toBe(303)
    expect(second.headers.get('location')).toBe('/pricing')
    expect(setCookieFor(second, SESSION_COOKIE)).toMatch(/HttpOnly/i)
  })

  it('the staff log-in also stops at the code step', async () => {
    const { user } = await enrolledUser(site.db, new Date(), { role: 'admin' })
    const response = await trpcPost(site.baseUrl, 'admin.session.login', { email: user.email, password: user.password })
    expect(await jsonOf(response)).toMatchObject({ result: { data: { twoFactor: true, mustEnrolTwoFactor: false } } })
    expect(setCookieFor(response, SESSION_COOKIE)).toBeUndefined()
    expect(setCookieFor(response, PENDING_LOGIN_COOKIE)).toBeTruthy()
  })

  it('mails a sign-in from a new device, not the first one nor a known one', async () => {
    const user = await createUser(site.db)
    const login = (agent: string) =>
      trpcPost(site.baseUrl, 'auth.login', { email: user.email, password: user.password }, { 'user-agent': agent })
    await login('Mozilla/5.0 (Windows NT 10.0) Chrome/140.0 Safari/537.36')
    expect(await latestMailTo(site.db, user.email, SECURITY_MAIL_KINDS.newDevice)).toBeUndefined()
    await login('Mozilla/5.0 (Windows NT 10.0) Chrome/140.0 Safari/537.36')
    expect(await latestMailTo(site.db, user.email, SECURITY_MAIL_KINDS.newDevice)).toBeUndefined()
    await login('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Version/18.0 Mobile Safari/604.1')
    const mail = await latestMailTo(site.db, user.email, SECURITY_MAIL_KINDS.newDevice)
    expect(mail?.text_body).toContain('Safari on iPhone')
    expect(mail?.text_body).toContain('127.0.0.0/24')
  })
})

describe('STAFF_2FA', () => {
  const required = { ...defaultAppConfig, staffTwoFactor: 'required' as const }

  it('required: admins and owners without a second factor are refused staff procedures, editors are not', async () => {
    const admin = await createUser(site.db, { role: 'admin' })
    const { caller } = await callerFor(site.db, { ...admin, twoFactorEnabled: false }, required)
    await expect(caller.admin.session.me()).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: AUTH_MESSAGES.staffTwoFactorRequired,
    })
    expect((await caller.security.overview()).staffMustEnrol).toBe(true)
    const editor = await createUser(site.db, { role: 'editor' })
    expect(await (await callerFor(site.db, editor, required)).caller.admin.session.me()).toMatchObject({
      role: 'editor',
    })
    const optional = await callerFor(site.db, admin, { ...defaultAppConfig, staffTwoFactor: 'optional' })
    expect(await optional.caller.admin.session.me()).toMatchObject({ role: 'admin' })
  })

  it('the session check tells whether the account has a second factor', async () => {
    const { user } = await enrolledUser(site.db, new Date(), { role: 'super_admin' })
    const { token } = await createSessionToken(site.db, user.id)
    const validated = await validateSessionToken(site.db, token)
    expect(validated?.user.twoFactorEnabled).toBe(true)
    const caller = createCaller(
      createContextInner({ db: site.db, user: validated!.user, session: validated!.session, config: required }),
    )
    expect(await caller.admin.session.me()).toMatchObject({ role: 'super_admin' })
    const plain = await createUser(site.db)
    const plainSession = await validateSessionToken(site.db, (await createSessionToken(site.db, plain.id)).token)
    expect(plainSession?.user.twoFactorEnabled).toBe(false)
  })

  it('required: the staff log-in of an admin without a second factor says to set one up', async () => {
    const admin = await createUser(site.db, { role: 'admin' })
    const caller = createCaller(createContextInner({ db: site.db, user: null, session: null, config: required }))
    expect(await caller.admin.session.login({ email: admin.email, password: admin.password })).toMatchObject({
      twoFactor: false,
      mustEnrolTwoFactor: true,
    })
  })
})

describe('signed-in sessions', () => {
  it('lists only the user own sessions and ends only those', async () => {
    const alice = await createUser(site.db)
    const bob = await createUser(site.db)
    const { caller: aliceCaller, session: current } = await callerFor(site.db, alice)
    const aliceOther = await createSessionToken(site.db, alice.id)
    const bobSession = await createSessionToken(site.db, bob.id)

    const listed = (await aliceCaller.security.overview()).sessions
    expect(listed.map((session) => session.id).sort()).toEqual([current.id, aliceOther.session.id].sort())
    expect(listed[0]).toMatchObject({ id: current.id, current: true })
    expect(JSON.stringify(listed)).not.toContain(bobSession.session.id)

    await expect(aliceCaller.security.signOutSession({ sessionId: bobSession.session.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    expect(await validateSessionToken(site.db, bobSession.token)).not.toBeNull()

    await aliceCaller.security.signOutSession({ sessionId: aliceOther.session.id })
    expect(await validateSessionToken(site.db, aliceOther.token)).toBeNull()
    await expect(aliceCaller.security.signOutSession({ sessionId: aliceOther.session.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
  })

  it('signs out everywhere else, keeping this session and other users', async () => {
    const alice = await createUser(site.db)
    const bob = await createUser(site.db)
    const { caller, session: current } = await callerFor(site.db, alice)
    const others = [await createSessionToken(site.db, alice.id), await createSessionToken(site.db, alice.id)]
    const bobSession = await createSessionToken(site.db, bob.id)
    expect(await caller.security.signOutOthers()).toEqual({ ended: 2 })
    for (const other of others) expect(await validateSessionToken(site.db, other.token)).toBeNull()
    expect(await validateSessionToken(site.db, bobSession.token)).not.toBeNull()
    expect((await caller.security.overview()).sessions.map((session) => session.id)).toEqual([current.id])
  })

  it('a visitor cannot list or end sessions', async () => {
    const caller = createCaller(createContextInner({ db: site.db, user: null, session: null }))
    await expect(caller.security.overview()).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(caller.security.signOutOthers()).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })
})

describe('password changes', () => {
  it('mail the account', async () => {
    const user = await createUser(site.db)
    const { caller } = await callerFor(site.db, user)
    await caller.auth.changePassword({ currentPassword: user.password, newPassword: 'another-horse-7!' })
    expect(await latestMailTo(site.db, user.email, SECURITY_MAIL_KINDS.passwordChanged)).toBeTruthy()
  })
})

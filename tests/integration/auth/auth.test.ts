// Sign-up, log-in, e-mail verification, password reset and change, through the routers on a real database.
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ZodError } from 'zod'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { latestMailTo } from '../../../src-server/mail/outbox.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createMemoryLimiter, RATE_RULES } from '../../../src-server/security/rate-limit.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { AUTH_MESSAGES } from '../../../src-shared/auth.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, visitorCaller } from '../../support/factories.ts'

let database: DatabaseHandle
const config = { ...defaultAppConfig, publicUrl: 'http://shop.test' }

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

/** A visitor's caller with its own rate-limit counters (one per test, as one client). */
function visitor(clientIp = '203.0.113.7') {
  return visitorCaller(database.db, config, clientIp)
}

async function zodMessages(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(TRPCError)
  const cause = (error as TRPCError).cause
  expect(cause).toBeInstanceOf(ZodError)
  return (cause as ZodError).issues.map((issue) => issue.message)
}

function tokenFrom(text: string, path: string): string {
  const match = text.match(new RegExp(`${path}\\?token=([a-z0-9]+)`))
  if (!match?.[1]) throw new Error(`no ${path} link in mail`)
  return match[1]
}

const signup = (email: string, password = 'long-enough-1!') => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email,
  password,
  acceptTerms: true as const,
})

describe('auth.signup', () => {
  it('creates an unverified customer with an argon2id hash and mails a verification link', async () => {
    const result = await visitor().auth.signup(signup('Ada@Example.test'))
    expect(result.message).toBe('Account created successfully! Please check your email for verification.')
    const user = await database.db
      .selectFrom('users')
      .select(['email', 'email_verified', 'password_hash', 'role', 'first_name', 'last_name'])
      .where('email', '=', 'Ada@Example.test')
      .executeTakeFirstOrThrow()
    expect(user).toMatchObject({ email_verified: false, role: 'customer', first_name: 'Ada', last_name: 'Lovelace' })
    expect(user.password_hash).toMatch(/^\$argon2id\$/)
    expect(user.password_hash).not.toContain('long-enough-1!')
    const mail = await latestMailTo(database.db, 'Ada@Example.test', 'verify_email')
    expect(mail?.text_body).toContain('http://shop.test/verify-email?token=')
    const stored = await database.db.selectFrom('auth_tokens').select('token_hash').execute()
    expect(stored.map((row) => row.token_hash)).not.toContain(tokenFrom(mail!.text_body, '/verify-email'))
  })

  it('refuses a short password and unticked terms with the spec messages', async () => {
    expect(await zodMessages(visitor().auth.signup(signup('short@example.test', 'abc1234')))).toEqual([
      'Password must be at least 8 characters',
    ])
    const noTerms = { ...signup('terms@example.test'), acceptTerms: false }
    expect(await zodMessages(visitor().auth.signup(noTerms as never))).toEqual([
      'You must agree to the terms and conditions',
    ])
  })

  it('answers a taken address like a new one, creates nothing and tells the owner instead', async () => {
    const owner = await createUser(database.db, { email: 'taken@example.test' })
    const result = await visitor().auth.signup(signup('TAKEN@example.test'))
    expect(result.message).toBe(AUTH_MESSAGES.signupSuccess)
    const rows = await database.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', 'taken@example.test'))
      .execute()
    expect(rows).toEqual([{ id: owner.id }])
    expect((await latestMailTo(database.db, 'taken@example.test'))?.kind).toBe('already_registered')
  })

  it('leaves the typed name out of verification mails: the address is not proven yet', async () => {
    const input = { ...signup('named@example.test'), firstName: 'Zebulon', lastName: 'Quixote' }
    await visitor().auth.signup(input)
    await visitor().auth.signup(input) // again while unverified: a fresh link
    const mails = await database.db
      .selectFrom('mail_outbox')
      .select(['kind', 'text_body'])
      .where('to_address', '=', 'named@example.test')
      .execute()
    expect(mails.map((mail) => mail.kind)).toEqual(['verify_email', 'verify_email'])
    for (const mail of mails) {
      expect(mail.text_body).toMatch(/^Hello,\n/)
      expect(mail.text_body).not.toMatch(/Zebulon|Quixote/)
    }
  })

  it('stops after 10 sign-ups from one address', async () => {
    const caller = visitor('198.51.100.1')
    for (let i = 0; i < 10; i++) await caller.auth.signup(signup(`many-${i}@example.test`))
    await expect(caller.auth.signup(signup('many-10@example.test'))).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many attempts. Please try again later.',
    })
  })
})

describe('e-mail verification', () => {
  it('verifies once with the mailed token, then refuses it; log-in waits for it', async () => {
    const caller = visitor()
    await caller.auth.signup(signup('verify@example.test'))
    await expect(caller.auth.login({ email: 'verify@example.test', password: 'long-enough-1!' })).rejects.toMatchObject(
      {
        code: 'FORBIDDEN',
        message: AUTH_MESSAGES.emailNotVerified,
      },
    )
    const token = tokenFrom((await latestMailTo(database.db, 'verify@example.test'))!.text_body, '/verify-email')
    // In-process, no browser cookie: the sign-up's password confirms the address (decision 0134).
    expect(await caller.auth.verifyEmail({ token, password: 'long-enough-1!' })).toEqual({
      message: AUTH_MESSAGES.emailVerified,
      giftWaiting: false,
    })
    await expect(caller.auth.verifyEmail({ token })).rejects.toMatchObject({ message: AUTH_MESSAGES.badVerifyLink })
    const me = await caller.auth.login({ email: 'verify@example.test', password: 'long-enough-1!' })
    expect(me).toMatchObject({ emailVerified: true })
  })

  // Decision 0134: a stranger who signs up first with someone's address must not hold the account its owner verifies.
  it('gives the account the password and name of the sign-up whose link is used; the other links die', async () => {
    const address = 'squatted@example.test'
    const links = async () =>
      (
        await database.db
          .selectFrom('mail_outbox')
          .select('text_body')
          .where('to_address', '=', address)
          .orderBy('created_at')
          .execute()
      ).map((mail) => tokenFrom(mail.text_body, '/verify-email'))
    const stranger = { ...signup(address, 'strangers-pass-1'), firstName: 'Eve', lastName: 'Stranger' }
    await visitor('198.51.100.66').auth.signup(stranger)
    // The owner signs up, then the stranger again: the owner's own link still works, with the owner's password.
    await visitor().auth.signup(signup(address, 'owners-password-1'))
    await visitor('198.51.100.66').auth.signup(stranger)
    const [strangerFirst, owners, strangerSecond] = await links()
    expect(await visitor().auth.verifyEmail({ token: owners!, password: 'owners-password-1' })).toEqual({
      message: AUTH_MESSAGES.emailVerified,
      giftWaiting: false,
    })
    expect(await visitor().auth.login({ email: address, password: 'owners-password-1' })).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailVerified: true,
    })
    await expect(
      visitor('198.51.100.67').auth.login({ email: address, password: 'strangers-pass-1' }),
    ).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    })
    for (const token of [strangerFirst!, strangerSecond!]) {
      await expect(visitor().auth.verifyEmail({ token })).rejects.toMatchObject({
        message: AUTH_MESSAGES.badVerifyLink,
      })
    }
  })

  it('refuses an expired token', async () => {
    const caller = visitor()
    await caller.auth.signup(signup('late@example.test'))
    const token = tokenFrom((await latestMailTo(database.db, 'late@example.test'))!.text_body, '/verify-email')
    await database.db
      .updateTable('auth_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute()
    await expect(caller.auth.verifyEmail({ token })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    const user = await database.db
      .selectFrom('users')
      .select('email_verified')
      .where('email', '=', 'late@example.test')
      .executeTakeFirstOrThrow()
    expect(user.email_verified).toBe(false)
  })
})

describe('auth.login', () => {
  it('gives the same answer for an unknown e-mail and a wrong password', async () => {
    const user = await createUser(database.db)
    const unknown = await visitor()
      .auth.login({ email: 'nobody@example.test', password: 'whatever-123' })
      .catch((e: TRPCError) => e)
    const wrong = await visitor()
      .auth.login({ email: user.email, password: 'wrong-password' })
      .catch((e: TRPCError) => e)
    expect(unknown).toBeInstanceOf(TRPCError)
    expect(wrong).toBeInstanceOf(TRPCError)
    expect([(unknown as TRPCError).code, (unknown as TRPCError).message]).toEqual([
      'UNAUTHORIZED',
      'Invalid email or password',
    ])
    expect([(wrong as TRPCError).code, (wrong as TRPCError).message]).toEqual([
      'UNAUTHORIZED',
      'Invalid email or password',
    ])
  })

  it('signs in with any case of the e-mail and records a session with the remember flag', async () => {
    const user = await createUser(database.db, { email: 'case@example.test' })
    const me = await visitor().auth.login({ email: 'CASE@Example.test', password: user.password, remember: false })
    expect(me).toEqual({
      id: user.id,
      email: 'case@example.test',
      firstName: 'Test',
      lastName: 'User',
      avatarUrl: null,
      role: 'customer',
      emailVerified: true,
      // No deletion waiting out its cool-off (issue 28): nothing to offer to cancel.
      deletionScheduledFor: null,
    })
    const sessions = await database.db
      .selectFrom('sessions')
      .select('remember')
      .where('user_id', '=', user.id)
      .execute()
    expect(sessions).toEqual([{ remember: false }])
  })

  it('locks out an address after 10 failed attempts, even with the right password', async () => {
    const user = await createUser(database.db)
    const caller = visitor('192.0.2.50')
    for (let i = 0; i < 10; i++) {
      await expect(caller.auth.login({ email: user.email, password: `wrong-${i}` })).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
      })
    }
    await expect(caller.auth.login({ email: user.email, password: user.password })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    })
  })

  it('also limits one e-mail across many client addresses', async () => {
    const user = await createUser(database.db)
    const limiter = createMemoryLimiter()
    const from = (ip: string) =>
      createCaller(createContextInner({ db: database.db, user: null, session: null, config, limiter, clientIp: ip }))
    for (let i = 0; i < 30; i++) {
      await expect(from(`10.0.0.${i}`).auth.login({ email: user.email, password: 'guess' })).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
      })
    }
    await expect(from('10.0.1.1').auth.login({ email: user.email, password: user.password })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    })
  })
})

describe('auth.me and profile', () => {
  it('is null for a visitor and the user for a session', async () => {
    expect(await visitor().auth.me()).toBeNull()
    const user = await createUser(database.db, { firstName: 'Grace', lastName: 'Hopper' })
    const me = await (await callerAs(database.db, user)).auth.me()
    expect(me).toMatchObject({
      id: user.id,
      firstName: 'Grace',
      lastName: 'Hopper',
      emailVerified: true,
      role: 'customer',
    })
  })

  it('updates the name of the signed-in user only', async () => {
    await expect(visitor().profile.updateName({ firstName: 'A', lastName: 'B' })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'User not authenticated',
    })
    const user = await createUser(database.db)
    const other = await createUser(database.db)
    const me = await (await callerAs(database.db, user)).profile.updateName({ firstName: ' Alan ', lastName: 'Turing' })
    expect(me).toMatchObject({ firstName: 'Alan', lastName: 'Turing' })
    const untouched = await database.db
      .selectFrom('users')
      .select('first_name')
      .where('id', '=', other.id)
      .executeTakeFirstOrThrow()
    expect(untouched.first_name).toBe('Test')
  })
})

describe('password reset', () => {
  it('answers the same whether or not the e-mail has an account, and mails only a real one', async () => {
    const user = await createUser(database.db)
    const known = await visitor().auth.requestPasswordReset({ email: user.email })
    const unknown = await visitor().auth.requestPasswordReset({ email: 'ghost@example.test' })
    expect(known).toEqual(unknown)
    expect(known.message).toBe(AUTH_MESSAGES.resetRequested)
    expect(await latestMailTo(database.db, 'ghost@example.test')).toBeUndefined()
    expect((await latestMailTo(database.db, user.email))?.kind).toBe('reset_password')
  })

  it('sets the new password once per token and ends every session', async () => {
    const user = await createUser(database.db)
    await callerAs(database.db, user) // a signed-in device whose session must end
    await visitor().auth.requestPasswordReset({ email: user.email })
    const token = tokenFrom((await latestMailTo(database.db, user.email))!.text_body, '/reset-password')
    await visitor().auth.resetPassword({ token, password: 'brand-new-pass-2' })
    expect(await database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([])
    await expect(visitor().auth.resetPassword({ token, password: 'another-pass-3' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: AUTH_MESSAGES.badResetLink,
    })
    await expect(visitor().auth.login({ email: user.email, password: user.password })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    })
    expect(await visitor().auth.login({ email: user.email, password: 'brand-new-pass-2' })).toMatchObject({
      id: user.id,
    })
  })

  it('limits requests per client and per inbox, and never blocks the link a client asked for', async () => {
    const user = await createUser(database.db)
    const limiter = createMemoryLimiter()
    const from = (clientIp: string) =>
      createCaller(createContextInner({ db: database.db, user: null, session: null, config, limiter, clientIp }))
    for (let i = 0; i < RATE_RULES.passwordReset.max; i++) {
      await from('203.0.113.50').auth.requestPasswordReset({ email: user.email })
    }
    await expect(from('203.0.113.50').auth.requestPasswordReset({ email: user.email })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    })
    // Another client cannot flood the same inbox either (5 an hour per address, from anywhere).
    await expect(from('203.0.113.51').auth.requestPasswordReset({ email: user.email })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    })
    // The client that asked five times can still use its latest link.
    const token = tokenFrom((await latestMailTo(database.db, user.email))!.text_body, '/reset-password')
    expect(await from('203.0.113.50').auth.resetPassword({ token, password: 'brand-new-pass-9' })).toEqual({
      message: AUTH_MESSAGES.resetDone,
    })
  })

  it('refuses an expired reset token and a newer request replaces the older link', async () => {
    const user = await createUser(database.db)
    await visitor().auth.requestPasswordReset({ email: user.email })
    const first = tokenFrom((await latestMailTo(database.db, user.email))!.text_body, '/reset-password')
    await visitor('192.0.2.9').auth.requestPasswordReset({ email: user.email })
    await expect(visitor().auth.resetPassword({ token: first, password: 'new-password-1' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    })
    const second = (
      await database.db
        .selectFrom('mail_outbox')
        .select('text_body')
        .where('to_address', '=', user.email)
        .orderBy('created_at', 'desc')
        .execute()
    ).map((mail) => tokenFrom(mail.text_body, '/reset-password'))[0]!
    expect(second).not.toBe(first)
    await database.db
      .updateTable('auth_tokens')
      .set({ expires_at: new Date(Date.now() - 1) })
      .where('user_id', '=', user.id)
      .execute()
    await expect(visitor().auth.resetPassword({ token: second, password: 'new-password-1' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    })
  })
})

describe('auth.changePassword', () => {
  it('needs the current password, then ends all older sessions of the user', async () => {
    const user = await createUser(database.db)
    const caller = await callerAs(database.db, user)
    await callerAs(database.db, user) // a second device
    await expect(
      caller.auth.changePassword({ currentPassword: 'not-it', newPassword: 'changed-pass-9' }),
    ).rejects.toMatchObject({ message: AUTH_MESSAGES.wrongCurrentPassword })
    const before = await database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()
    expect(before).toHaveLength(2)
    await caller.auth.changePassword({ currentPassword: user.password, newPassword: 'changed-pass-9' })
    const after = await database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()
    expect(after).toHaveLength(1) // only the fresh session of this device
    expect(before.map((s) => s.id)).not.toContain(after[0]!.id)
  })
})

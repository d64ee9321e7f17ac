// No dead end for a newcomer, through the routers on a real database: a fresh verification link on request (the
// same answer for any address, limited), the invitation link handed to the inviting admin, and the sign-in
// providers the server is configured for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppConfig, defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createMemoryLimiter } from '../../../src-server/security/rate-limit.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { AUTH_MESSAGES } from '../../../src-shared/auth.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createSessionToken, createUser } from '../../support/factories.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

const config: AppConfig = { ...defaultAppConfig, publicUrl: 'http://shop.test' }

function visitor(
  options: { clientIp?: string; config?: AppConfig; limiter?: ReturnType<typeof createMemoryLimiter> } = {},
) {
  return createCaller(
    createContextInner({
      db: database.db,
      user: null,
      session: null,
      config: options.config ?? config,
      limiter: options.limiter ?? createMemoryLimiter(),
      clientIp: options.clientIp ?? '203.0.113.9',
    }),
  )
}

const mailsTo = (to: string) =>
  database.db
    .selectFrom('mail_outbox')
    .select(['kind', 'text_body'])
    .where('to_address', '=', to)
    .orderBy('created_at')
    .execute()

const verifyToken = (text: string) => /\/verify-email\?token=([a-z0-9]+)/.exec(text)?.[1] ?? ''

describe('auth.resendVerification', () => {
  it('mails an unverified account a new link that works, and the older link stops working', async () => {
    const caller = visitor()
    await caller.auth.signup({
      firstName: 'Nia',
      lastName: 'New',
      email: 'nia@example.test',
      password: 'long-enough-1!',
      acceptTerms: true,
    })
    const first = verifyToken((await mailsTo('nia@example.test'))[0]!.text_body)

    expect(await caller.auth.resendVerification({ email: 'NIA@example.test' })).toEqual({
      message: AUTH_MESSAGES.verificationResent,
    })
    const mails = await mailsTo('nia@example.test')
    expect(mails.map((mail) => mail.kind)).toEqual(['verify_email', 'verify_email'])
    const second = verifyToken(mails[1]!.text_body)
    expect(second).not.toBe(first)

    await expect(caller.auth.verifyEmail({ token: first })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    expect(await caller.auth.verifyEmail({ token: second, password: 'long-enough-1!' })).toEqual({
      message: AUTH_MESSAGES.emailVerified,
      giftWaiting: false,
    })
    expect(await caller.auth.login({ email: 'nia@example.test', password: 'long-enough-1!' })).toMatchObject({
      emailVerified: true,
    })
  })

  it('answers an unknown or already verified address the same, and mails neither', async () => {
    const verified = await createUser(database.db, { emailVerified: true })
    const caller = visitor()
    const unknown = await caller.auth.resendVerification({ email: 'nobody-here@example.test' })
    const known = await caller.auth.resendVerification({ email: verified.email })
    expect(unknown).toEqual(known)
    expect(await mailsTo('nobody-here@example.test')).toEqual([])
    expect(await mailsTo(verified.email)).toEqual([])
  })

  it('sends at most 3 links an hour to one address, from any client, and 5 requests per client', async () => {
    const pending = await createUser(database.db, { emailVerified: false })
    const limiter = createMemoryLimiter()
    for (let i = 0; i < 3; i++) {
      await visitor({ limiter, clientIp: `198.51.100.${i}` }).auth.resendVerification({ email: pending.email })
    }
    await expect(
      visitor({ limiter, clientIp: '198.51.100.99' }).auth.resendVerification({ email: pending.email }),
    ).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS', message: AUTH_MESSAGES.tooManyAttempts })
    expect(await mailsTo(pending.email)).toHaveLength(3)

    const one = visitor({ limiter, clientIp: '192.0.2.1' })
    for (let i = 0; i < 5; i++) await one.auth.resendVerification({ email: `spray-${i}@example.test` })
    await expect(one.auth.resendVerification({ email: 'spray-5@example.test' })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    })
  })
})

describe('inviting without a mail transport', () => {
  async function adminCaller(mailDelivery: AppConfig['mailDelivery']) {
    const admin = await createUser(database.db, { role: 'admin' })
    const { session } = await createSessionToken(database.db, admin.id)
    return createCaller(
      createContextInner({ db: database.db, user: admin, session, config: { ...config, mailDelivery } }),
    )
  }

  it('hands the admin the invitation link, which the invitee can use, and says it was not mailed', async () => {
    const result = await (await adminCaller('log')).admin.team.invite({
      name: 'Ivy Invitee',
      email: 'ivy@example.test',
    })
    expect(result.mailed).toBe(false)
    expect(result.link).toMatch(/^http:\/\/shop\.test\/admin\/accept-invite\?token=[a-z0-9]+$/)
    const outbox = await mailsTo('ivy@example.test')
    expect(outbox[0]!.text_body).toContain(result.link)

    const token = new URL(result.link).searchParams.get('token')!
    expect(await visitor().admin.team.invitation({ token })).toMatchObject({ email: 'ivy@example.test' })
  })

  it('says it was mailed when SMTP is configured', async () => {
    const result = await (await adminCaller('smtp')).admin.team.invite({ name: 'Sam', email: 'sam@example.test' })
    expect(result.mailed).toBe(true)
  })
})

describe('auth.providers', () => {
  it('lists only the OAuth providers the server is configured for', async () => {
    const onPlatform = { school: null, passwordsHandedOff: false, platformUrl: null }
    expect(await visitor().auth.providers()).toEqual({ oauth: [], ...onPlatform })
    expect(await visitor({ config: { ...config, oauthProviders: ['google'] } }).auth.providers()).toEqual({
      oauth: ['google'],
      ...onPlatform,
    })
  })
})

// Google and Facebook sign-in through the real routes, with the providers faked at the fetch layer.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exchangeCode, OAuthFailure, oauthClient, PROVIDER_TIMEOUT_MS } from '../../../src-server/auth/oauth.ts'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { type FakeOAuth, fakeOAuthProviders } from '../../support/fake-oauth.ts'
import { setCookieFor, startTestServer, type TestServer } from '../../support/http.ts'

let database: DatabaseHandle
let server: TestServer
let fake: FakeOAuth
const CREDENTIALS = {
  google: { clientId: 'google-id', clientSecret: 'google-secret' },
  facebook: { clientId: 'fb-id', clientSecret: 'fb-secret' },
}

beforeAll(async () => {
  database = await createTestDatabase()
  server = await startTestServer(database.db, {
    env: {
      GOOGLE_CLIENT_ID: CREDENTIALS.google.clientId,
      GOOGLE_CLIENT_SECRET: CREDENTIALS.google.clientSecret,
      FACEBOOK_CLIENT_ID: CREDENTIALS.facebook.clientId,
      FACEBOOK_CLIENT_SECRET: CREDENTIALS.facebook.clientSecret,
    },
  })
  fake = fakeOAuthProviders()
})
afterAll(async () => {
  fake.restore()
  await server.stop()
  await database.close()
})

function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
}

/** Starts a flow and returns the provider URL and the flow cookies the browser would keep. */
async function start(provider: 'google' | 'facebook', query = '') {
  const response = await fetch(`${server.baseUrl}/auth/${provider}${query}`, { redirect: 'manual' })
  expect(response.status).toBe(302)
  return { location: new URL(response.headers.get('location')!), cookies: cookieHeader(response), response }
}

async function callback(provider: 'google' | 'facebook', params: Record<string, string>, cookies: string) {
  const response = await fetch(`${server.baseUrl}/auth/${provider}/callback?${new URLSearchParams(params)}`, {
    redirect: 'manual',
    headers: { cookie: cookies },
  })
  expect(response.status).toBe(302)
  return {
    location: decodeURIComponent(response.headers.get('location')!),
    session: setCookieFor(response, SESSION_COOKIE),
  }
}

describe('OAuth start', () => {
  it('sends the browser to Google with state, PKCE and short-lived HttpOnly cookies', async () => {
    const { location, response } = await start('google', '?redirect=/payment')
    expect(location.origin + location.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth')
    expect(location.searchParams.get('redirect_uri')).toBe('http://storefront.test/auth/google/callback')
    expect(location.searchParams.get('code_challenge_method')).toBe('S256')
    const state = setCookieFor(response, 'oauth_state')!
    expect(state).toContain(`oauth_state=${location.searchParams.get('state')}`)
    for (const name of ['oauth_state', 'oauth_verifier', 'oauth_flow']) {
      const line = setCookieFor(response, name)!
      expect(line).toMatch(/HttpOnly/i)
      expect(line).toMatch(/Max-Age=600/)
    }
  })
})

describe('OAuth callback', () => {
  it('refuses a state that does not match the cookie, creating nothing', async () => {
    const { cookies } = await start('google')
    fake.codes.set('code-mismatch', { id: 'g-mismatch', email: 'mismatch@example.test' })
    const result = await callback('google', { code: 'code-mismatch', state: 'forged-state' }, cookies)
    expect(result.location).toBe('/auth/callback?error=expired&via=google')
    expect(result.session).toBeUndefined()
    const users = await database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'mismatch@example.test')
      .execute()
    expect(users).toEqual([])
  })

  it('with a good code creates a verified account, signs in and returns to the saved URL', async () => {
    const { location, cookies } = await start('google', '?redirect=/payment')
    fake.codes.set('good-code', { id: 'g-100', email: 'new.google@example.test', firstName: 'Gia', lastName: 'Goo' })
    const result = await callback('google', { code: 'good-code', state: location.searchParams.get('state')! }, cookies)
    expect(result.location).toBe('/auth/callback?redirect=/payment')
    expect(result.session).toMatch(/HttpOnly/)
    // PKCE: the verifier sent to the token endpoint matches the challenge sent to the browser.
    const verifier = fake.tokenRequests.at(-1)!.get('code_verifier')!
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(location.searchParams.get('code_challenge'))
    const user = await database.db
      .selectFrom('users')
      .select(['id', 'email_verified', 'first_name', 'last_name', 'password_hash'])
      .where('email', '=', 'new.google@example.test')
      .executeTakeFirstOrThrow()
    expect(user).toMatchObject({ email_verified: true, first_name: 'Gia', last_name: 'Goo', password_hash: null })
    const link = await database.db
      .selectFrom('oauth_accounts')
      .select(['provider', 'user_id'])
      .where('provider_user_id', '=', 'g-100')
      .executeTakeFirstOrThrow()
    expect(link).toEqual({ provider: 'google', user_id: user.id })
  })

  it('links Facebook to the existing account with the same e-mail', async () => {
    const existing = await createUser(database.db, { email: 'Linked@Example.test' })
    const { location, cookies } = await start('facebook')
    fake.codes.set('fb-code', { id: 'fb-7', email: 'linked@example.test' })
    const result = await callback('facebook', { code: 'fb-code', state: location.searchParams.get('state')! }, cookies)
    expect(result.location).toBe('/auth/callback?redirect=/')
    const link = await database.db
      .selectFrom('oauth_accounts')
      .select('user_id')
      .where('provider_user_id', '=', 'fb-7')
      .executeTakeFirstOrThrow()
    expect(link.user_id).toBe(existing.id)
    const session = await database.db
      .selectFrom('sessions')
      .select('user_id')
      .where('user_id', '=', existing.id)
      .execute()
    expect(session).toHaveLength(1)
  })

  it('refuses a code the provider rejects, and an identity without a verified e-mail', async () => {
    let flow = await start('google')
    let result = await callback(
      'google',
      { code: 'unknown-code', state: flow.location.searchParams.get('state')! },
      flow.cookies,
    )
    expect(result.location).toBe('/auth/callback?error=code_refused&via=google')
    flow = await start('google')
    fake.codes.set('unverified', { id: 'g-unv', email: 'unv@example.test', emailVerified: false })
    result = await callback(
      'google',
      { code: 'unverified', state: flow.location.searchParams.get('state')! },
      flow.cookies,
    )
    expect(result.location).toBe('/auth/callback?error=email_unverified&via=google')
    expect(result.session).toBeUndefined()
  })

  it('in admin mode signs staff in to /admin and turns customers away without a session', async () => {
    const staff = await createUser(database.db, { role: 'editor', email: 'editor@example.test' })
    let flow = await start('google', '?mode=admin')
    fake.codes.set('staff-code', { id: 'g-staff', email: staff.email })
    let result = await callback(
      'google',
      { code: 'staff-code', state: flow.location.searchParams.get('state')! },
      flow.cookies,
    )
    expect(result.location).toBe('/admin')
    expect(result.session).toMatch(/HttpOnly/)
    expect(
      await database.db.selectFrom('sessions').select('id').where('user_id', '=', staff.id).execute(),
    ).toHaveLength(1)

    const customer = await createUser(database.db, { email: 'shopper@example.test' })
    flow = await start('google', '?mode=admin')
    fake.codes.set('customer-code', { id: 'g-customer', email: customer.email })
    result = await callback(
      'google',
      { code: 'customer-code', state: flow.location.searchParams.get('state')! },
      flow.cookies,
    )
    expect(result.location).toBe('/admin/login?error=not_staff&via=google')
    expect(result.session).toBeUndefined()
    expect(await database.db.selectFrom('sessions').select('id').where('user_id', '=', customer.id).execute()).toEqual(
      [],
    )

    // An identity with no account at all gets no new account from the admin sign-in.
    flow = await start('google', '?mode=admin')
    fake.codes.set('stranger-code', { id: 'g-stranger', email: 'stranger@example.test' })
    result = await callback(
      'google',
      { code: 'stranger-code', state: flow.location.searchParams.get('state')! },
      flow.cookies,
    )
    expect(result.location).toBe('/admin/login?error=not_staff&via=google')
    expect(
      await database.db.selectFrom('users').select('id').where('email', '=', 'stranger@example.test').execute(),
    ).toEqual([])
  })

  it('in admin mode refuses a linked staff account whose address is not verified', async () => {
    const staff = await createUser(database.db, { role: 'admin', email: 'unproven@example.test', emailVerified: false })
    await database.db
      .insertInto('oauth_accounts')
      .values({ provider: 'google', provider_user_id: 'g-unproven', user_id: staff.id })
      .execute()
    const flow = await start('google', '?mode=admin')
    fake.codes.set('unproven-code', { id: 'g-unproven', email: staff.email })
    const result = await callback(
      'google',
      { code: 'unproven-code', state: flow.location.searchParams.get('state')! },
      flow.cookies,
    )
    expect(result.location).toBe('/admin/login?error=not_staff&via=google')
    expect(result.session).toBeUndefined()
  })

  it('never takes a return URL off-site', async () => {
    const { location, cookies } = await start('google', `?redirect=${encodeURIComponent('//evil.example/x')}`)
    fake.codes.set('again', { id: 'g-100', email: 'new.google@example.test' })
    const result = await callback('google', { code: 'again', state: location.searchParams.get('state')! }, cookies)
    expect(result.location).toBe('/auth/callback?redirect=/')
  })
})

describe('an unconfigured provider', () => {
  it('refuses within the limit when the provider takes the code and never answers', async () => {
    fake.hangingCodes.add('code-that-hangs')
    for (const provider of ['google', 'facebook'] as const) {
      const oauth = await oauthClient(provider, CREDENTIALS, server.baseUrl)
      const started = Date.now()
      await expect(exchangeCode(oauth, 'code-that-hangs', 'verifier', 200)).rejects.toThrow(
        new OAuthFailure('unreachable', 'the provider could not be reached'),
      )
      expect(Date.now() - started).toBeLessThan(PROVIDER_TIMEOUT_MS)
    }
  })

  it('says so instead of crashing', async () => {
    const bare = await startTestServer(database.db)
    try {
      const response = await fetch(`${bare.baseUrl}/auth/facebook`, { redirect: 'manual' })
      expect(response.status).toBe(302)
      expect(decodeURIComponent(response.headers.get('location')!)).toBe(
        '/auth/callback?error=not_configured&via=facebook',
      )
      const admin = await fetch(`${bare.baseUrl}/auth/google?mode=admin`, { redirect: 'manual' })
      expect(decodeURIComponent(admin.headers.get('location')!)).toBe('/admin/login?error=not_configured&via=google')
    } finally {
      await bare.stop()
    }
  })
})

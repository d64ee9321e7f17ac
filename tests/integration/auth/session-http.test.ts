// Sessions over real HTTP: cookies, sliding expiry, log-out, CSRF refusal and security headers.
import { describe, expect, it } from 'vitest'
import {
  createSession,
  invalidateUserSessions,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  validateSessionToken,
} from '../../../src-server/auth/session.ts'
import { createUser } from '../../support/factories.ts'
import { cookiePair, setCookieFor, trpcPost } from '../../support/http.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const DAY = 24 * 60 * 60 * 1000

const site = serveForThisFile()

describe('session tokens', () => {
  it('stores only a hash of the secret and refuses a wrong or malformed token', async () => {
    const user = await createUser(site.db)
    const { token, session } = await createSession(site.db, user.id)
    const [id, secret] = token.split('.')
    expect(id).toBe(session.id)
    const row = await site.db
      .selectFrom('sessions')
      .select('secret_hash')
      .where('id', '=', id!)
      .executeTakeFirstOrThrow()
    expect(Buffer.from(row.secret_hash).toString()).not.toContain(secret!)
    expect(row.secret_hash.length).toBe(32)
    expect(await validateSessionToken(site.db, `${id}.${'a'.repeat(secret!.length)}`)).toBeNull()
    expect(await validateSessionToken(site.db, `${id}`)).toBeNull()
    expect(await validateSessionToken(site.db, `${token}.extra`)).toBeNull()
    expect((await validateSessionToken(site.db, token))?.user.id).toBe(user.id)
  })

  it('expires after 30 days and deletes the row', async () => {
    const user = await createUser(site.db)
    const start = new Date('2026-01-01T00:00:00Z')
    const { token, session } = await createSession(site.db, user.id, true, start)
    expect(session.expiresAt.getTime() - start.getTime()).toBe(SESSION_TTL_MS)
    expect(await validateSessionToken(site.db, token, new Date(start.getTime() + 30 * DAY + 1))).toBeNull()
    expect(await site.db.selectFrom('sessions').select('id').where('id', '=', session.id).execute()).toEqual([])
  })

  it('slides forward when used in its second half, not before', async () => {
    const user = await createUser(site.db)
    const start = new Date('2026-03-01T00:00:00Z')
    const { token, session } = await createSession(site.db, user.id, true, start)
    const early = await validateSessionToken(site.db, token, new Date(start.getTime() + 5 * DAY))
    expect(early?.refreshed).toBe(false)
    expect(early?.session.expiresAt.getTime()).toBe(session.expiresAt.getTime())
    const day20 = new Date(start.getTime() + 20 * DAY)
    const late = await validateSessionToken(site.db, token, day20)
    expect(late?.refreshed).toBe(true)
    expect(late?.session.expiresAt.getTime()).toBe(day20.getTime() + SESSION_TTL_MS)
    // Past the original expiry it still works, because it slid.
    expect(await validateSessionToken(site.db, token, new Date(start.getTime() + 35 * DAY))).not.toBeNull()
  })
})

describe('session token boundaries', () => {
  const MINUTE = 60 * 1000
  const row = (id: string) =>
    site.db
      .selectFrom('sessions')
      .select(['user_id', 'remember', 'expires_at', 'last_seen_at'])
      .where('id', '=', id)
      .executeTakeFirst()

  it('stores the user, the remember flag, the expiry and the time it was made', async () => {
    const user = await createUser(site.db)
    const start = new Date('2026-04-01T00:00:00Z')
    const { token, session } = await createSession(site.db, user.id, false, start)
    expect(session).toEqual({
      id: token.split('.')[0],
      expiresAt: new Date(start.getTime() + SESSION_TTL_MS),
      remember: false,
    })
    expect(await row(session.id)).toEqual({
      user_id: user.id,
      remember: false,
      expires_at: new Date(start.getTime() + SESSION_TTL_MS),
      last_seen_at: start,
    })
    const validated = await validateSessionToken(site.db, token, new Date(start.getTime() + MINUTE))
    expect(validated).toMatchObject({ refreshed: false, session: { id: session.id, remember: false } })
    expect(validated?.user).toMatchObject({ id: user.id, email: user.email })
  })

  it('ends exactly at its expiry: valid a millisecond before, gone at the moment itself', async () => {
    const user = await createUser(site.db)
    const start = new Date('2026-05-01T00:00:00Z')
    const { token, session } = await createSession(site.db, user.id, true, start)
    const end = start.getTime() + SESSION_TTL_MS
    const other = await createSession(site.db, user.id, true, start)
    expect((await validateSessionToken(site.db, other.token, new Date(end - 1)))?.session.id).toBe(other.session.id)
    expect(await validateSessionToken(site.db, token, new Date(end))).toBeNull()
    expect(await row(session.id)).toBeUndefined()
  })

  it('slides only with less than half its life left, counted to the millisecond', async () => {
    const user = await createUser(site.db)
    const start = new Date('2026-06-01T00:00:00Z')
    const half = start.getTime() + SESSION_TTL_MS / 2
    const a = await createSession(site.db, user.id, true, start)
    const atHalf = await validateSessionToken(site.db, a.token, new Date(half))
    expect(atHalf?.refreshed).toBe(false)
    expect(atHalf?.session.expiresAt).toEqual(a.session.expiresAt)
    const b = await createSession(site.db, user.id, true, start)
    const past = await validateSessionToken(site.db, b.token, new Date(half + 1))
    expect(past?.refreshed).toBe(true)
    expect(past?.session.expiresAt).toEqual(new Date(half + 1 + SESSION_TTL_MS))
    expect((await row(b.session.id))?.expires_at).toEqual(new Date(half + 1 + SESSION_TTL_MS))
  })

  it('records when it was last used at five-minute resolution, without moving the expiry', async () => {
    const user = await createUser(site.db)
    const start = new Date('2026-07-01T00:00:00Z')
    const { token, session } = await createSession(site.db, user.id, true, start)
    await validateSessionToken(site.db, token, new Date(start.getTime() + 5 * MINUTE))
    expect((await row(session.id))?.last_seen_at).toEqual(start)
    const later = new Date(start.getTime() + 5 * MINUTE + 1)
    await validateSessionToken(site.db, token, later)
    expect(await row(session.id)).toMatchObject({ last_seen_at: later, expires_at: session.expiresAt })
  })

  it.each([
    ['an empty token', ''],
    ['a lone dot', '.'],
    ['no secret', 'abcdefgh.'],
    ['no id', '.abcdefgh'],
    ['upper-case letters', 'ABCDEFGH.abcdefgh'],
    ['a character outside base32', 'abcdefg1.abcdefgh'],
    ['a part longer than 64', `${'a'.repeat(65)}.abcdefgh`],
    ['an unknown id', 'abcdefgh.abcdefgh'],
    // Never sent to the database: PostgreSQL refuses a NUL in text, which would make a bad cookie a 500.
    ['a NUL before the id', '\u0000abcdefgh.abcdefgh'],
    ['a NUL after the id', 'abcdefgh\u0000.abcdefgh'],
  ])('refuses %s', async (_label, token) => {
    expect(await validateSessionToken(site.db, token)).toBeNull()
  })

  it('ends every session of one user but the one kept, and no one else’s', async () => {
    const user = await createUser(site.db)
    const other = await createUser(site.db)
    const kept = await createSession(site.db, user.id)
    const ended = await createSession(site.db, user.id)
    const theirs = await createSession(site.db, other.id)
    await invalidateUserSessions(site.db, user.id, kept.session.id)
    expect(await row(kept.session.id)).toMatchObject({ user_id: user.id })
    expect(await row(ended.session.id)).toBeUndefined()
    expect(await row(theirs.session.id)).toMatchObject({ user_id: other.id })
    await invalidateUserSessions(site.db, user.id)
    expect(await row(kept.session.id)).toBeUndefined()
    expect(await row(theirs.session.id)).toMatchObject({ user_id: other.id })
  })
})

describe('log-in and log-out over HTTP', () => {
  it('sets an HttpOnly SameSite=Lax cookie that persists only with Remember me', async () => {
    const user = await createUser(site.db)
    const remembered = await trpcPost(site.baseUrl, 'auth.login', {
      email: user.email,
      password: user.password,
      remember: true,
    })
    expect(remembered.status).toBe(200)
    const persistent = setCookieFor(remembered, SESSION_COOKIE)!
    expect(persistent).toMatch(/HttpOnly/i)
    expect(persistent).toMatch(/SameSite=Lax/i)
    expect(persistent).toMatch(/Expires=/i)
    expect(persistent).not.toMatch(/Secure/i) // plain HTTP in tests; production sets Secure

    const browserSession = await trpcPost(site.baseUrl, 'auth.login', {
      email: user.email,
      password: user.password,
      remember: false,
    })
    const transient = setCookieFor(browserSession, SESSION_COOKIE)!
    expect(transient).toMatch(/HttpOnly/i)
    expect(transient).not.toMatch(/Expires=|Max-Age=/i)
  })

  it('resolves the user from the cookie; log-out deletes the session and clears the cookie', async () => {
    const user = await createUser(site.db)
    const login = await trpcPost(site.baseUrl, 'auth.login', { email: user.email, password: user.password })
    const cookie = cookiePair(setCookieFor(login, SESSION_COOKIE))
    const me = await fetch(`${site.baseUrl}/trpc/auth.me`, { headers: { cookie } })
    expect(((await me.json()) as { result: { data: { id: string } } }).result.data.id).toBe(user.id)

    const logout = await trpcPost(site.baseUrl, 'auth.logout', undefined, { cookie })
    expect(logout.status).toBe(200)
    expect(setCookieFor(logout, SESSION_COOKIE)).toMatch(/Expires=Thu, 01 Jan 1970/)
    expect(await site.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([])
    const after = await fetch(`${site.baseUrl}/trpc/auth.me`, { headers: { cookie } })
    expect(((await after.json()) as { result: { data: unknown } }).result.data).toBeNull()
  })

  it('a password change ends the sessions of other devices', async () => {
    const user = await createUser(site.db)
    const login = await trpcPost(site.baseUrl, 'auth.login', { email: user.email, password: user.password })
    const other = await trpcPost(site.baseUrl, 'auth.login', { email: user.email, password: user.password })
    const cookie = cookiePair(setCookieFor(login, SESSION_COOKIE))
    const otherCookie = cookiePair(setCookieFor(other, SESSION_COOKIE))
    const change = await trpcPost(
      site.baseUrl,
      'auth.changePassword',
      { currentPassword: user.password, newPassword: 'another-secret-7' },
      { cookie },
    )
    expect(change.status).toBe(200)
    const fresh = cookiePair(setCookieFor(change, SESSION_COOKIE))
    const meOther = await fetch(`${site.baseUrl}/trpc/auth.me`, { headers: { cookie: otherCookie } })
    expect(((await meOther.json()) as { result: { data: unknown } }).result.data).toBeNull()
    const meFresh = await fetch(`${site.baseUrl}/trpc/auth.me`, { headers: { cookie: fresh } })
    expect(((await meFresh.json()) as { result: { data: { id: string } } }).result.data.id).toBe(user.id)
  })

  it('answers a signed-out authed call with 401 "User not authenticated"', async () => {
    const response = await trpcPost(site.baseUrl, 'profile.updateName', { firstName: 'A', lastName: 'B' })
    expect(response.status).toBe(401)
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('User not authenticated')
  })
})

describe('CSRF', () => {
  it('refuses state-changing requests from another site', async () => {
    const user = await createUser(site.db)
    const body = { email: user.email, password: user.password }
    const evilOrigin = await trpcPost(site.baseUrl, 'auth.login', body, { origin: 'https://evil.example' })
    expect(evilOrigin.status).toBe(403)
    expect(setCookieFor(evilOrigin, SESSION_COOKIE)).toBeUndefined()
    const crossSite = await trpcPost(site.baseUrl, 'auth.login', body, { 'sec-fetch-site': 'cross-site' })
    expect(crossSite.status).toBe(403)
    const avatar = await fetch(`${site.baseUrl}/api/profile/avatar`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    })
    expect(avatar.status).toBe(403)
    const sameOrigin = await trpcPost(site.baseUrl, 'auth.login', body, { 'sec-fetch-site': 'same-origin' })
    expect(sameOrigin.status).toBe(200)
  })
})

describe('security headers', () => {
  it('sends a Content-Security-Policy that allows what the app embeds, and nothing more', async () => {
    const response = await fetch(`${site.baseUrl}/healthz`)
    const csp = response.headers.get('content-security-policy') ?? ''
    const directive = (name: string) =>
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith(`${name} `)) ?? ''
    expect(directive('default-src')).toBe("default-src 'self'")
    expect(directive('script-src')).toBe("script-src 'self' https://www.paypal.com")
    expect(directive('frame-src')).toContain('https://www.openstreetmap.org')
    expect(directive('frame-src')).toContain('https://www.paypal.com')
    expect(directive('img-src')).toContain("'self' data: blob:")
    expect(directive('object-src')).toBe("object-src 'none'")
    expect(csp).not.toContain('upgrade-insecure-requests')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN')
  })
})

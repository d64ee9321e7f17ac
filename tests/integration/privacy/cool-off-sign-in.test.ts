// A person in their deletion's cool-off is sent to the page with Cancel deletion (/account/security) on every way of
// signing in, as the script's log-in does (issue 28, decision 0066): the no-JavaScript log-in form and its code
// step, and Google and Facebook sign-in. Others still go back where they started.

import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateHOTP } from '@oslojs/otp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PENDING_LOGIN_COOKIE } from '../../../src-server/auth/pending-login.ts'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { totpStep } from '../../../src-server/auth/totp.ts'
import { confirmTotpEnrolment, startTotpEnrolment } from '../../../src-server/auth/two-factor.ts'
import { scheduleDeletion } from '../../../src-server/privacy/deletions.ts'
import { DELETION_CANCEL_PATH } from '../../../src-shared/auth.ts'
import { createUser } from '../../support/factories.ts'
import { type FakeOAuth, fakeOAuthProviders } from '../../support/fake-oauth.ts'
import { cookiePair, setCookieFor } from '../../support/http.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile({
  env: {
    GOOGLE_CLIENT_ID: 'google-id',
    GOOGLE_CLIENT_SECRET: 'google-secret',
    FACEBOOK_CLIENT_ID: 'fb-id',
    FACEBOOK_CLIENT_SECRET: 'fb-secret',
  },
})
let fake: FakeOAuth
beforeAll(() => {
  fake = fakeOAuthProviders()
})
afterAll(() => fake.restore())

const post = (path: string, fields: Record<string, string>, cookie = '') =>
  fetch(`${site.baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie },
    body: new URLSearchParams(fields).toString(),
  })

async function personInCoolOff(overrides: Parameters<typeof createUser>[1] = {}) {
  const person = await createUser(site.db, overrides)
  await scheduleDeletion(site.db, person.id, null, new Date())
  return person
}

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')

/** Google or Facebook sign-in through the real routes, the provider faked; the callback's redirect. */
async function oauthSignIn(provider: 'google' | 'facebook', identity: { id: string; email: string }) {
  const started = await fetch(`${site.baseUrl}/auth/${provider}?redirect=/pricing`, { redirect: 'manual' })
  const state = new URL(started.headers.get('location')!).searchParams.get('state')!
  const code = `code-${identity.id}`
  fake.codes.set(code, identity)
  const back = await fetch(`${site.baseUrl}/auth/${provider}/callback?${new URLSearchParams({ code, state })}`, {
    redirect: 'manual',
    headers: { cookie: cookiesOf(started) },
  })
  expect(back.status).toBe(302)
  return { location: decodeURIComponent(back.headers.get('location')!), session: setCookieFor(back, SESSION_COOKIE) }
}

describe('signing in during the cool-off', () => {
  it('the no-JavaScript log-in form goes to Cancel deletion (others go back)', async () => {
    const person = await personInCoolOff()
    const signedIn = await post('/login?redirect=%2Fpricing', { email: person.email, password: person.password })
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get('location')).toBe(DELETION_CANCEL_PATH)
    expect(setCookieFor(signedIn, SESSION_COOKIE)).toMatch(/HttpOnly/i)

    const other = await createUser(site.db)
    const back = await post('/login?redirect=%2Fpricing', { email: other.email, password: other.password })
    expect(back.headers.get('location')).toBe('/pricing')
  })

  it('the no-JavaScript code step goes to Cancel deletion', async () => {
    const person = await personInCoolOff()
    const settings = { publicUrl: 'http://storefront.test' }
    const { manualKey } = await startTotpEnrolment(site.db, person, settings)
    const code = generateHOTP(decodeBase32IgnorePadding(manualKey.replace(/ /g, '')), BigInt(totpStep(new Date())), 6)
    const [recovery] = await confirmTotpEnrolment(site.db, person.id, code, settings, new Date())
    const first = await post('/login?redirect=%2Fpricing', { email: person.email, password: person.password })
    expect(first.headers.get('location')).toBe('/two-factor?redirect=%2Fpricing')
    const pending = cookiePair(setCookieFor(first, PENDING_LOGIN_COOKIE))
    const second = await post('/two-factor?redirect=%2Fpricing', { code: recovery ?? '' }, pending)
    expect(second.status).toBe(303)
    expect(second.headers.get('location')).toBe(DELETION_CANCEL_PATH)
    expect(setCookieFor(second, SESSION_COOKIE)).toMatch(/HttpOnly/i)
  })

  it('Google and Facebook sign-in go to Cancel deletion (others go back)', async () => {
    const person = await personInCoolOff()
    const google = await oauthSignIn('google', { id: `g-${person.id}`, email: person.email })
    expect(google.location).toBe(`/auth/callback?deletion=1&redirect=${DELETION_CANCEL_PATH}`)
    expect(google.session).toMatch(/HttpOnly/)
    const facebook = await oauthSignIn('facebook', { id: `fb-${person.id}`, email: person.email })
    expect(facebook.location).toBe(`/auth/callback?deletion=1&redirect=${DELETION_CANCEL_PATH}`)

    const other = await createUser(site.db)
    const back = await oauthSignIn('google', { id: `g-${other.id}`, email: other.email })
    expect(back.location).toBe('/auth/callback?redirect=/pricing')
  })
})

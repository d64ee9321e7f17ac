// STAFF_2FA=required (the default) over HTTP: an admin without a second factor is sent to set one up and refused the
// staff procedures until then; an editor is not; an admin with one goes through the code step to the dashboard.
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateHOTP } from '@oslojs/otp'
import { describe, expect, it } from 'vitest'
import { PENDING_LOGIN_COOKIE } from '../../../src-server/auth/pending-login.ts'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { totpStep } from '../../../src-server/auth/totp.ts'
import { confirmTotpEnrolment, startTotpEnrolment } from '../../../src-server/auth/two-factor.ts'
import { AUTH_MESSAGES } from '../../../src-shared/auth.ts'
import { createUser } from '../../support/factories.ts'
import { cookiePair, setCookieFor } from '../../support/http.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile({ env: { STAFF_2FA: 'required' } })

function postForm(path: string, fields: Record<string, string>, cookie = '') {
  return fetch(`${site.baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie },
    body: new URLSearchParams(fields).toString(),
  })
}

const adminMe = (cookie: string) => fetch(`${site.baseUrl}/trpc/admin.session.me`, { headers: { cookie } })

describe('STAFF_2FA=required', () => {
  it('sends an admin without a second factor to set one up, and refuses the staff area until then', async () => {
    const admin = await createUser(site.db, { role: 'admin' })
    const response = await postForm('/admin/login', { email: admin.email, password: admin.password })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/account/security')
    const cookie = cookiePair(setCookieFor(response, SESSION_COOKIE))
    const me = await adminMe(cookie)
    expect(me.status).toBe(412)
    expect(((await me.json()) as { error: { message: string } }).error.message).toBe(
      AUTH_MESSAGES.staffTwoFactorRequired,
    )
    const overview = await fetch(`${site.baseUrl}/trpc/security.overview`, { headers: { cookie } })
    expect(
      ((await overview.json()) as { result: { data: { staffMustEnrol: boolean } } }).result.data.staffMustEnrol,
    ).toBe(true)
  })

  it('lets an editor in without one', async () => {
    const editor = await createUser(site.db, { role: 'editor' })
    const response = await postForm('/admin/login', { email: editor.email, password: editor.password })
    expect(response.headers.get('location')).toBe('/admin')
    expect((await adminMe(cookiePair(setCookieFor(response, SESSION_COOKIE)))).status).toBe(200)
  })

  it('takes an owner with a second factor through the code step to the dashboard', async () => {
    const owner = await createUser(site.db, { role: 'super_admin' })
    const settings = { publicUrl: site.baseUrl }
    const { manualKey } = await startTotpEnrolment(site.db, owner, settings)
    const key = decodeBase32IgnorePadding(manualKey.replace(/ /g, ''))
    const step = totpStep(new Date())
    await confirmTotpEnrolment(site.db, owner.id, generateHOTP(key, BigInt(step), 6), settings)

    const first = await postForm('/admin/login?redirect=%2Fadmin%2Forders', {
      email: owner.email,
      password: owner.password,
    })
    expect(first.headers.get('location')).toBe('/two-factor?redirect=%2Fadmin%2Forders')
    expect(setCookieFor(first, SESSION_COOKIE)).toBeUndefined()
    const pending = cookiePair(setCookieFor(first, PENDING_LOGIN_COOKIE))
    const second = await postForm(
      '/two-factor?redirect=%2Fadmin%2Forders',
      { code: generateHOTP(key, BigInt(step + 1), 6) },
      pending,
    )
    expect(second.headers.get('location')).toBe('/admin/orders')
    expect((await adminMe(cookiePair(setCookieFor(second, SESSION_COOKIE)))).status).toBe(200)
  })
})

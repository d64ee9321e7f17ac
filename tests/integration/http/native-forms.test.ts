// Forms the browser posts itself (src-server/http/native-forms.ts): the same procedures as the hydrated pages,
// over a urlencoded POST to the page's own address, answered with a redirect. (The page rendered again with its
// errors needs the built client: tests/e2e/before-hydration.spec.ts.)
import { describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { createUser } from '../../support/factories.ts'
import { setCookieFor } from '../../support/http.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()

function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${site.baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', ...headers },
    body: new URLSearchParams(fields).toString(),
  })
}

describe('native form posts', () => {
  it('log-in signs in and redirects to the return path only inside the site', async () => {
    const user = await createUser(site.db, { password: 'correct-horse-9!' })
    const fields = { email: user.email, password: 'correct-horse-9!', remember: 'on' }
    const signedIn = await postForm('/login?redirect=%2Fpricing', fields)
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get('location')).toBe('/pricing')
    expect(setCookieFor(signedIn, SESSION_COOKIE)).toMatch(/HttpOnly/i)

    const elsewhere = await postForm('/login?redirect=%2F%2Fevil.example', fields)
    expect(elsewhere.headers.get('location')).toBe('/')
  })

  it('a wrong password sets no session and goes back to the form', async () => {
    const user = await createUser(site.db, { password: 'correct-horse-9!' })
    const refused = await postForm('/login', { email: user.email, password: 'wrong-horse-9!' })
    expect(refused.status).toBe(303)
    expect(refused.headers.get('location')).toBe('/login')
    expect(setCookieFor(refused, SESSION_COOKIE)).toBeUndefined()
  })

  it('the contact form stores the message once its fields are valid', async () => {
    const subject = `Native post ${Date.now()}`
    const fields = { name: 'Grace Hopper', email: 'grace@example.com', subject, message: 'A question about SEO.' }
    await postForm('/contact', fields)
    expect(await site.db.selectFrom('contact_messages').select('id').where('subject', '=', subject).execute()).toEqual(
      [],
    )
    await postForm('/contact', { ...fields, agreement: 'on' })
    const stored = await site.db.selectFrom('contact_messages').select('name').where('subject', '=', subject).execute()
    expect(stored).toEqual([{ name: 'Grace Hopper' }])
  })

  it('refuses a cross-site post before it reaches the procedure', async () => {
    const user = await createUser(site.db, { password: 'correct-horse-9!' })
    const forged = await postForm(
      '/login',
      { email: user.email, password: 'correct-horse-9!' },
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    )
    expect(forged.status).toBe(403)
    expect(setCookieFor(forged, SESSION_COOKIE)).toBeUndefined()
  })

  it('reads only urlencoded bodies of a sane size', async () => {
    const json = await fetch(`${site.baseUrl}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ email: 'a@example.com', password: 'x' }),
    })
    expect(json.status).toBe(415)
    const huge = await postForm('/contact', { message: 'x'.repeat(70 * 1024) })
    expect(huge.status).toBe(413)
  })
})

// The owner from ADMIN_EMAIL/ADMIN_PASSWORD (start-up and `npm run admin:create`): no takeover by signing up with
// the address first, staff log-in only with a verified address, and one owner when instances start together.
import { describe, expect, it } from 'vitest'
import { ensureOwner } from '../../../src-server/team/owner.ts'
import { ADMIN_LOGIN_FAILED } from '../../../src-shared/schemas/admin.ts'
import { createSessionToken, createUser } from '../../support/factories.ts'
import { cookiePair, setCookieFor, trpcPost } from '../../support/http.ts'
import { raceIt, whileRowHeld } from '../../support/race.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()

async function adminLogin(email: string, password: string) {
  const response = await trpcPost(site.baseUrl, 'admin.session.login', { email, password })
  const body = (await response.json()) as { error?: { message: string } }
  return { status: response.status, message: body.error?.message, cookie: setCookieFor(response, 'session') }
}

const accountsFor = (email: string) =>
  site.db
    .selectFrom('users')
    .select(['id', 'role', 'email_verified'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .execute()

describe('owner takeover by signing up first', () => {
  it('resets an unverified account to ADMIN_PASSWORD, verifies it and ends its sessions', async () => {
    const email = 'boss@example.test'
    // The attacker signs up with the future ADMIN_EMAIL and never verifies it.
    const signup = await trpcPost(site.baseUrl, 'auth.signup', {
      firstName: 'Mallory',
      lastName: 'Attacker',
      email,
      password: 'attacker-password-1',
      acceptTerms: true,
    })
    expect(signup.status).toBe(200)
    await signup.text() // read every answer: one left unread keeps its connection busy and the server from stopping
    const [account] = await accountsFor(email)
    expect(account).toMatchObject({ role: 'customer', email_verified: false })
    const attackerSession = await createSessionToken(site.db, account!.id)

    // Start-up with ADMIN_EMAIL / ADMIN_PASSWORD.
    expect(await ensureOwner(site.db, email, 'admin-password-1')).toBe('claimed')
    expect(await accountsFor(email)).toEqual([{ id: account!.id, role: 'super_admin', email_verified: true }])

    const attacker = await adminLogin(email, 'attacker-password-1')
    expect(attacker).toMatchObject({ status: 401, message: ADMIN_LOGIN_FAILED, cookie: undefined })
    const me = await fetch(`${site.baseUrl}/trpc/admin.session.me`, {
      headers: { cookie: `session=${attackerSession.token}` },
    })
    expect(me.status).toBe(401)
    await me.text()
    expect(
      await site.db.selectFrom('sessions').select('id').where('id', '=', attackerSession.session.id).execute(),
    ).toEqual([])

    const owner = await adminLogin(email, 'admin-password-1')
    expect(owner.status).toBe(200)
    const session = await fetch(`${site.baseUrl}/trpc/admin.session.me`, {
      headers: { cookie: cookiePair(owner.cookie) },
    })
    expect(session.status).toBe(200)
    await session.text()

    // A restart with another ADMIN_PASSWORD changes nothing now that the address is the owner's.
    expect(await ensureOwner(site.db, email, 'changed-in-env-2')).toBe('exists')
    expect((await adminLogin(email, 'changed-in-env-2')).status).toBe(401)
    expect((await adminLogin(email, 'admin-password-1')).status).toBe(200)
  })

  it('keeps the password of a verified account it promotes', async () => {
    const customer = await createUser(site.db, { email: 'verified-boss@example.test' })
    expect(await ensureOwner(site.db, customer.email, 'ignored-password')).toBe('promoted')
    expect((await adminLogin(customer.email, customer.password)).status).toBe(200)
    expect((await adminLogin(customer.email, 'ignored-password')).status).toBe(401)
  })
})

describe('staff log-in', () => {
  it('refuses a staff account whose address is not verified, even with the right password', async () => {
    const editor = await createUser(site.db, { role: 'editor', emailVerified: false })
    expect(await adminLogin(editor.email, editor.password)).toEqual({
      status: 401,
      message: ADMIN_LOGIN_FAILED,
      cookie: undefined,
    })
    await site.db.updateTable('users').set({ email_verified: true }).where('id', '=', editor.id).execute()
    expect((await adminLogin(editor.email, editor.password)).status).toBe(200)
  })
})

describe('instances starting together on one database', () => {
  raceIt('makes exactly one owner out of 10 concurrent calls, none of them failing', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => ensureOwner(site.db, 'Race@Example.test', 'race-password-1')),
    )
    expect(results.filter((result) => result === 'created')).toHaveLength(1)
    expect(results.filter((result) => result === 'exists')).toHaveLength(9)
    expect(await accountsFor('race@example.test')).toEqual([
      { id: expect.any(String), role: 'super_admin', email_verified: true },
    ])
    expect((await adminLogin('race@example.test', 'race-password-1')).status).toBe(200)
  })

  // The account's row is held while the calls start, so at least two of them have read it unverified and wait on it
  // together: only the lock's second read (after the first claim committed) tells them it is the owner's now.
  raceIt('claims an unverified account once when the calls race', async () => {
    const squatter = await createUser(site.db, { email: 'race2@example.test', emailVerified: false })
    const results = await whileRowHeld(
      site.db,
      'users',
      squatter.id,
      () =>
        Promise.all(Array.from({ length: 10 }, () => ensureOwner(site.db, 'race2@example.test', 'race-password-2'))),
      { waiters: 2 },
    )
    expect(results.filter((result) => result === 'claimed')).toHaveLength(1)
    expect(results.filter((result) => result === 'exists')).toHaveLength(9)
    expect(await accountsFor('race2@example.test')).toEqual([
      { id: squatter.id, role: 'super_admin', email_verified: true },
    ])
    expect((await adminLogin('race2@example.test', squatter.password)).status).toBe(401)
  })
})

// Decision 0134's resend rule, over real HTTP: anyone may ask for a new verification link for an address, so a resend
// from a browser that did not sign up with it must not end the links of one that did; the owner's resend, from the
// browser they signed up in, carries the owner's sign-up even when a stranger's is newer.
import { afterEach, describe, expect, it } from 'vitest'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import { AUTH_MESSAGES } from '../../../src-shared/auth.ts'
import { accountOf, signupBrowser, signupFields, verificationLinksTo } from '../../support/signup-browser.ts'
import { serveForThisFile } from '../../support/test-server.ts'

// Each browser its own client address (X-Forwarded-For, trusted here), so one test's resends do not spend another's.
const site = serveForThisFile({ env: { TRUST_PROXY: true } })
const browser = (clientIp: string) => signupBrowser(site, clientIp)
const signup = signupFields
const linksTo = (email: string) => verificationLinksTo(site.db, email)
const account = (email: string) => accountOf(site.db, email)

/** The owner signs up with the address first, from their browser, then a stranger with the same address from theirs. */
async function ownerThenStranger(email: string, ownerIp: string, strangerIp: string, passwords: [string, string]) {
  const owner = browser(ownerIp)
  await owner.call('auth.signup', signup(email, passwords[0], 'Olivia'))
  const [ownersLink] = await linksTo(email)
  const stranger = browser(strangerIp)
  await stranger.call('auth.signup', signup(email, passwords[1], 'Eve'))
  return { owner, ownersLink: ownersLink!, stranger }
}

describe('a resent verification link', () => {
  afterEach(() => resetClock())

  it('lets nobody else’s resend end the owner’s link, and the owner’s resend carries the owner’s sign-up', async () => {
    const email = `resend-race-${Date.now()}@example.test`
    const { owner, ownersLink, stranger } = await ownerThenStranger(email, '198.51.100.18', '198.51.100.19', [
      'owners-password-2',
      'strangers-pass-2',
    ])
    // The stranger asks for resends, from their browser and from one without cookies: the owner's link lives on.
    await stranger.call('auth.resendVerification', { email })
    await browser('198.51.100.20').call('auth.resendVerification', { email })
    expect(await linksTo(email)).toHaveLength(4)

    // The owner asks too, from the browser they signed up in: the new link carries their sign-up, not the newest one
    // (the stranger's), and replaces only their own earlier link.
    await owner.call('auth.resendVerification', { email })
    const ownersResent = (await linksTo(email)).at(-1)!
    expect(await owner.call('auth.verifyEmail', { token: ownersLink })).toMatchObject({
      error: AUTH_MESSAGES.badVerifyLink,
    })
    expect((await owner.call('auth.verifyEmail', { token: ownersResent })).data).toMatchObject({
      message: AUTH_MESSAGES.emailVerified,
    })
    expect(await account(email)).toMatchObject({ email_verified: true, first_name: 'Olivia' })
    expect((await owner.call('auth.login', { email, password: 'owners-password-2' })).status).toBe(200)
  })

  it('keeps the owner’s first link working after a stranger’s resend', async () => {
    const email = `resend-spoil-${Date.now()}@example.test`
    const { owner, ownersLink, stranger } = await ownerThenStranger(email, '198.51.100.21', '198.51.100.22', [
      'owners-password-3',
      'strangers-pass-3',
    ])
    await stranger.call('auth.resendVerification', { email })
    expect((await owner.call('auth.verifyEmail', { token: ownersLink })).data).toMatchObject({
      message: AUTH_MESSAGES.emailVerified,
    })
    expect(await account(email)).toMatchObject({ email_verified: true, first_name: 'Olivia' })
  })

  it('asks for the account’s password once the sign-up’s own links have expired, so it cannot verify a stranger’s', async () => {
    const email = `expired-${Date.now()}@example.test`
    const stranger = browser('198.51.100.23')
    await stranger.call('auth.signup', signup(email, 'strangers-pass-4', 'Eve'))
    await advanceClock(25 * 3600) // the sign-up's link has expired
    const owner = browser('198.51.100.24')
    await owner.call('auth.resendVerification', { email })
    const resent = (await linksTo(email)).at(-1)!

    // The owner, who never signed up, cannot confirm the stranger's account by clicking or with their own password.
    expect(await owner.call('auth.verifyEmail', { token: resent })).toMatchObject({
      error: AUTH_MESSAGES.signupPasswordNeeded,
    })
    expect(await owner.call('auth.verifyEmail', { token: resent, password: 'owners-password-4' })).toMatchObject({
      error: AUTH_MESSAGES.signupPasswordWrong,
    })
    expect(await account(email)).toMatchObject({ email_verified: false })
    expect((await stranger.call('auth.login', { email, password: 'strangers-pass-4' })).error).toBe(
      AUTH_MESSAGES.emailNotVerified,
    )
  })

  it('lets the person who signed up confirm a link resent after theirs expired, with their password', async () => {
    const email = `late-${Date.now()}@example.test`
    const laptop = browser('198.51.100.25')
    await laptop.call('auth.signup', signup(email, 'laptop-password-5', 'Lena'))
    await advanceClock(25 * 3600)
    await laptop.call('auth.resendVerification', { email })
    const resent = (await linksTo(email)).at(-1)!
    expect(await laptop.call('auth.verifyEmail', { token: resent })).toMatchObject({
      error: AUTH_MESSAGES.signupPasswordNeeded,
    })
    expect(
      (await laptop.call('auth.verifyEmail', { token: resent, password: 'laptop-password-5' })).data,
    ).toMatchObject({ message: AUTH_MESSAGES.emailVerified })
    expect(await account(email)).toMatchObject({ email_verified: true, first_name: 'Lena' })
  })
})

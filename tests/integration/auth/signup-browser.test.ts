// Decision 0134's second part, over real HTTP: a sign-up's verification link applies the sign-up's password in the
// browser that signed up (its signup_browser cookie) and asks for that password anywhere else. So the owner of an
// address who opens a stranger's sign-up mail does not hand the stranger a verified account by clicking it.
import { describe, expect, it } from 'vitest'
import { linkOrCreateUser } from '../../../src-server/auth/oauth.ts'
import { SIGNUP_BROWSER_COOKIE } from '../../../src-server/auth/signup-browser.ts'
import { AUTH_MESSAGES } from '../../../src-shared/auth.ts'
import { setCookieFor } from '../../support/http.ts'
import { mailsTo } from '../../support/outbox.ts'
import { accountOf, signupBrowser, signupFields, verificationLinksTo } from '../../support/signup-browser.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()

const browser = (clientIp: string) => signupBrowser(site, clientIp)
const signup = signupFields
const linksTo = (email: string) => verificationLinksTo(site.db, email)
const account = (email: string) => accountOf(site.db, email)

describe('a sign-up’s link and the browser that signed up', () => {
  it('verifies in the signing-up browser without asking for anything, its cookie HttpOnly', async () => {
    const email = `same-browser-${Date.now()}@example.test`
    const laptop = browser('198.51.100.10')
    const signedUp = await laptop.call('auth.signup', signup(email, 'laptop-password-1'))
    expect(signedUp.status).toBe(200)
    const cookie = setCookieFor(signedUp.response, SIGNUP_BROWSER_COOKIE)
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    const [token] = await linksTo(email)

    const verified = await laptop.call('auth.verifyEmail', { token })
    expect(verified.data).toMatchObject({ message: AUTH_MESSAGES.emailVerified })
    expect(await account(email)).toMatchObject({ email_verified: true })
    const login = await laptop.call('auth.login', { email, password: 'laptop-password-1' })
    expect(login.status).toBe(200)
  })

  it('asks another browser for the sign-up’s password, refuses a wrong one, then verifies with the right one', async () => {
    const email = `other-browser-${Date.now()}@example.test`
    await browser('198.51.100.11').call('auth.signup', signup(email, 'chosen-password-1'))
    const [token] = await linksTo(email)
    const phone = browser('198.51.100.12')

    const asked = await phone.call('auth.verifyEmail', { token })
    expect(asked).toMatchObject({ status: 400, error: AUTH_MESSAGES.signupPasswordNeeded })
    const wrong = await phone.call('auth.verifyEmail', { token, password: 'not-the-password' })
    expect(wrong).toMatchObject({ status: 400, error: AUTH_MESSAGES.signupPasswordWrong })
    // Neither changed anything, and the link still works.
    expect(await account(email)).toMatchObject({ email_verified: false })

    const right = await phone.call('auth.verifyEmail', { token, password: 'chosen-password-1' })
    expect(right.data).toMatchObject({ message: AUTH_MESSAGES.emailVerified })
    expect(await account(email)).toMatchObject({ email_verified: true })
    // Used: a second click says so, whatever it carries.
    const again = await phone.call('auth.verifyEmail', { token, password: 'chosen-password-1' })
    expect(again).toMatchObject({ status: 400, error: AUTH_MESSAGES.badVerifyLink })
  })

  it('does not give the account to a stranger whose sign-up mail the owner clicks', async () => {
    const email = `owner-${Date.now()}@example.test`
    const stranger = browser('198.51.100.13')
    await stranger.call('auth.signup', signup(email, 'strangers-pass-1', 'Eve'))
    const [strangersLink] = await linksTo(email)

    // The owner, who never signed up, opens the mail they did not ask for in their own browser and types their password.
    const owner = browser('198.51.100.14')
    expect(await owner.call('auth.verifyEmail', { token: strangersLink })).toMatchObject({
      error: AUTH_MESSAGES.signupPasswordNeeded,
    })
    expect(await owner.call('auth.verifyEmail', { token: strangersLink, password: 'owners-password-1' })).toMatchObject(
      { error: AUTH_MESSAGES.signupPasswordWrong },
    )
    expect(await account(email)).toMatchObject({ email_verified: false })
    const strangersLogin = await stranger.call('auth.login', { email, password: 'strangers-pass-1' })
    expect(strangersLogin.error).toBe(AUTH_MESSAGES.emailNotVerified)

    // The owner signs up with their own password; their own link verifies in their browser, with their name.
    await owner.call('auth.signup', signup(email, 'owners-password-1', 'Olivia'))
    const ownersLink = (await linksTo(email)).at(-1)!
    expect((await owner.call('auth.verifyEmail', { token: ownersLink })).data).toMatchObject({
      message: AUTH_MESSAGES.emailVerified,
    })
    expect(await account(email)).toMatchObject({ email_verified: true, first_name: 'Olivia' })
    expect((await stranger.call('auth.login', { email, password: 'strangers-pass-1' })).status).toBe(401)
  })

  it('lets a resent link verify in the browser that signed up, and asks elsewhere', async () => {
    const email = `resent-${Date.now()}@example.test`
    const laptop = browser('198.51.100.15')
    await laptop.call('auth.signup', signup(email, 'laptop-password-2'))
    await browser('198.51.100.16').call('auth.resendVerification', { email })
    const resent = (await linksTo(email)).at(-1)!
    expect(await browser('198.51.100.17').call('auth.verifyEmail', { token: resent })).toMatchObject({
      error: AUTH_MESSAGES.signupPasswordNeeded,
    })
    expect((await laptop.call('auth.verifyEmail', { token: resent })).data).toMatchObject({
      message: AUTH_MESSAGES.emailVerified,
    })
  })
})

// The owner proves the address another way first (a reset link, Google): a stranger's sign-up link, still pending in the
// stranger's own browser, must not then put the stranger's password on the owner's account.
describe('a sign-up’s link once the address is proven another way', () => {
  async function strangerSignedUp(email: string) {
    const stranger = browser('198.51.100.20')
    await stranger.call('auth.signup', signup(email, 'strangers-pass-9', 'Eve'))
    const [link] = await linksTo(email)
    return { stranger, link: link! }
  }

  it('is dead after the owner resets the password from the mailed link', async () => {
    const email = `reset-first-${Date.now()}@example.test`
    const { stranger, link } = await strangerSignedUp(email)
    const owner = browser('198.51.100.21')
    await owner.call('auth.requestPasswordReset', { email })
    const reset = (await mailsTo(site.db, email)).find((mail) => mail.kind === 'reset_password')!
    const resetToken = /\/reset-password\?token=([a-z0-9]+)/.exec(reset.text_body)![1]!
    expect((await owner.call('auth.resetPassword', { token: resetToken, password: 'owners-new-pass-1' })).status).toBe(
      200,
    )

    expect(await stranger.call('auth.verifyEmail', { token: link })).toMatchObject({
      status: 400,
      error: AUTH_MESSAGES.badVerifyLink,
    })
    expect((await stranger.call('auth.login', { email, password: 'strangers-pass-9' })).status).toBe(401)
    expect((await owner.call('auth.login', { email, password: 'owners-new-pass-1' })).status).toBe(200)
  })

  it('is dead after the owner signs in with Google for the address', async () => {
    const email = `google-first-${Date.now()}@example.test`
    const { stranger, link } = await strangerSignedUp(email)
    await linkOrCreateUser(site.db, 'google', {
      providerUserId: `google-${Date.now()}`,
      email,
      emailVerified: true,
      firstName: 'Olivia',
      lastName: 'Owner',
    })

    expect(await stranger.call('auth.verifyEmail', { token: link })).toMatchObject({
      status: 400,
      error: AUTH_MESSAGES.badVerifyLink,
    })
    expect((await stranger.call('auth.login', { email, password: 'strangers-pass-9' })).status).toBe(401)
  })
})

// Two-factor sign-in and the sessions list (issue 28): a staff member sets up TOTP on /account/security (the test
// computes the codes from the key the page shows), logs in with a code, then with a recovery code, which is refused
// the second time; the code step works without JavaScript; a customer signs out another session of theirs.

import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateHOTP } from '@oslojs/otp'
import type { Page } from '@playwright/test'
import { confirmTotpEnrolment, startTotpEnrolment } from '../../src-server/auth/two-factor.ts'
import { createSessionToken, createUser } from '../support/factories.ts'
import { axeViolations, pageWidth } from './a11y.ts'
import { expect, test } from './fixtures.ts'
import { recordSecrets } from './secrets.ts'

const step = () => Math.floor(Date.now() / 30_000)

/** Codes from a key, as an authenticator app computes them; never the same step twice (the server refuses a replay). */
function authenticator(manualKey: string) {
  const key = decodeBase32IgnorePadding(manualKey.replace(/\s/g, ''))
  let lastUsed = -1
  return () => {
    const at = Math.max(step(), lastUsed + 1)
    lastUsed = at
    return generateHOTP(key, BigInt(at), 6)
  }
}

async function staffLogIn(page: Page, email: string, password: string) {
  await page.goto('/admin/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

async function enterCode(page: Page, code: string) {
  await expect(page).toHaveURL(/\/two-factor\?redirect=%2Fadmin/)
  await page.getByLabel('Authentication code').fill(code)
  await page.getByRole('button', { name: 'Verify' }).click()
}

test('a staff member sets up TOTP, logs in with a code, and with a recovery code only once', async ({
  page,
  login,
}) => {
  test.setTimeout(60_000)
  const admin = await login({ role: 'admin', firstName: 'Ada', lastName: 'Admin' })

  // On a phone, as the route table's check does for the first state of the page.
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/account/security')
  const section = page.getByRole('region', { name: 'Two-factor authentication' })
  await expect(section.getByText('Off.')).toBeVisible()
  // A fresh proof first: a session alone cannot turn two-factor on (it outlives a password reset).
  await section.getByRole('button', { name: 'Set up two-factor authentication' }).click()
  await expect(section.getByRole('alert')).toHaveText('Enter your password or a code to confirm.')
  await section.getByLabel('Your password').fill('not-the-password')
  await section.getByRole('button', { name: 'Set up two-factor authentication' }).click()
  await expect(section.getByRole('alert')).toContainText(/password/i)
  await section.getByLabel('Your password').fill(admin.password)
  await section.getByRole('button', { name: 'Set up two-factor authentication' }).click()
  await expect(section.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible()
  // Each step replaces the button pressed; focus goes into what replaced it.
  await expect(section.getByLabel('Code from the app')).toBeFocused()
  expect(await pageWidth(page)).toBeLessThanOrEqual(390)
  expect(await axeViolations(page)).toEqual([])
  const manualKey = (await section.getByTestId('totp-manual-key').textContent()) ?? ''
  expect(manualKey).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/)
  recordSecrets(new Set([manualKey, manualKey.replace(/\s/g, '')]))
  const nextCode = authenticator(manualKey)

  await section.getByLabel('Code from the app').fill('000000')
  await section.getByRole('button', { name: 'Turn on' }).click()
  await expect(section.getByRole('alert')).toContainText('That code is not right')
  await section.getByLabel('Code from the app').fill(nextCode())
  await section.getByRole('button', { name: 'Turn on' }).click()
  const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')
  await expect(codes).toHaveCount(10)
  await expect(section.getByRole('button', { name: 'Copy codes' })).toBeFocused()
  const recoveryCodes = (await codes.allTextContents()).map((code) => code.trim())
  recordSecrets(new Set(recoveryCodes))
  expect(recoveryCodes.every((code) => /^[a-z2-7]{5}-[a-z2-7]{5}$/.test(code))).toBe(true)
  expect(await pageWidth(page)).toBeLessThanOrEqual(390)
  expect(await axeViolations(page)).toEqual([])
  await section.getByRole('button', { name: 'I have saved them' }).click()
  await expect(section.getByText('10 of 10 recovery codes left.')).toBeVisible()
  await expect(section.getByText('10 of 10 recovery codes left.')).toBeFocused()
  expect(await axeViolations(page)).toEqual([])
  // Never shown again.
  await page.reload()
  await expect(page.getByText(recoveryCodes[0]!)).toHaveCount(0)
  await expect(page.getByTestId('totp-manual-key')).toHaveCount(0)

  // Log in again: the password, then a code from the app.
  await page.context().clearCookies()
  await staffLogIn(page, admin.email, admin.password)
  await enterCode(page, nextCode())
  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()

  // A recovery code instead of the app, once.
  await page.context().clearCookies()
  await staffLogIn(page, admin.email, admin.password)
  await enterCode(page, recoveryCodes[0]!)
  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()

  await page.context().clearCookies()
  await staffLogIn(page, admin.email, admin.password)
  await enterCode(page, recoveryCodes[0]!)
  await expect(page.getByRole('alert').filter({ hasText: 'That code is not right' })).toBeVisible()
  await expect(page).toHaveURL(/\/two-factor/)
  expect((await page.context().cookies()).some((cookie) => cookie.name === 'session')).toBe(false)

  // The next recovery code still works, and the security page counts what is left.
  await enterCode(page, recoveryCodes[1]!)
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/account/security')
  await expect(page.getByText('8 of 10 recovery codes left.')).toBeVisible()
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the log-in form goes on to the code step, which signs in', async ({ page, db }) => {
    const user = await createUser(db)
    const settings = { publicUrl: 'http://127.0.0.1' }
    const { manualKey } = await startTotpEnrolment(db, user, settings)
    recordSecrets(new Set([manualKey.replace(/\s/g, '')]))
    const nextCode = authenticator(manualKey)
    await confirmTotpEnrolment(db, user.id, nextCode(), settings)

    await page.goto('/login?redirect=%2Fpricing')
    await page.getByLabel('Email', { exact: true }).fill(user.email)
    await page.getByLabel('Password', { exact: true }).fill(user.password)
    await page.getByRole('button', { name: 'Log In' }).click()
    await expect(page).toHaveURL(/\/two-factor\?redirect=%2Fpricing$/)
    // The one field of the page has the focus: the code is typed at once.
    await expect(page.getByLabel('Authentication code')).toBeFocused()
    await page.getByLabel('Authentication code').fill('000000')
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page.getByText('That code is not right')).toBeVisible()
    await page.getByLabel('Authentication code').fill(nextCode())
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page).toHaveURL(/\/pricing$/)
    expect((await page.context().cookies()).some((cookie) => cookie.name === 'session')).toBe(true)
  })
})

test('a customer signs out another of their sessions, then everywhere else', async ({
  page,
  login,
  browser,
  db,
  baseURL,
  clientAddress,
}) => {
  test.setTimeout(60_000)
  const customer = await login({ firstName: 'Cara', lastName: 'Customer' })

  // The same person on a phone, signed in through the log-in form.
  const phone = await browser.newContext({
    baseURL,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
  })
  const phonePage = await phone.newPage()
  await phonePage.goto('/login')
  await phonePage.getByLabel('Email', { exact: true }).fill(customer.email)
  await phonePage.getByLabel('Password', { exact: true }).fill(customer.password)
  await phonePage.getByRole('button', { name: 'Log In' }).click()
  await expect(phonePage).toHaveURL('/')

  await page.goto('/account/security')
  const sessions = page.getByRole('region', { name: "Where you're signed in" }).getByTestId('session-row')
  await expect(sessions).toHaveCount(2)
  await expect(sessions.first()).toContainText('This device')
  const phoneRow = sessions.filter({ hasText: 'Safari on iPhone' })
  // The address the phone came from, as its network only (the /24 it is in).
  await expect(phoneRow).toContainText(`Network ${clientAddress.split('.').slice(0, 3).join('.')}.0/24`)
  await phoneRow.getByRole('button', { name: /^Sign out Safari on iPhone/ }).click()
  await expect(page.getByText('Safari on iPhone is signed out.')).toBeVisible()
  await expect(sessions).toHaveCount(1)
  // Its button went with it: focus is on the list, not lost to the page.
  await expect(page.getByRole('list', { name: 'Signed-in sessions' })).toBeFocused()

  // The phone is signed out: its next page asks it to log in.
  await phonePage.goto('/account')
  await expect(phonePage).toHaveURL(/\/login\?redirect=/)
  await phone.close()

  // Two more sessions elsewhere; Sign out everywhere else ends both, and keeps this one.
  await createSessionToken(db, customer.id)
  await createSessionToken(db, customer.id)
  await page.reload()
  await expect(sessions).toHaveCount(3)
  await page.getByRole('button', { name: 'Sign out everywhere else' }).click()
  await expect(page.getByText('2 other sessions ended.')).toBeVisible()
  await expect(sessions).toHaveCount(1)
  await expect(sessions.first()).toContainText('This device')
})

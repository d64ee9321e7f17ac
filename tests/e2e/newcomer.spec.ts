// A newcomer's first hour on a server started like `npm start` with no SMTP_URL: sign up, find the verification
// link in the admin outbox, ask for a new one from the log-in page (and from an expired link), verify and log in;
// an admin hands over an invitation link with Copy link and the invitee joins; the site works under a second host
// name over plain http; unknown pages answer 404.
import type { Browser, Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures.ts'

const OWNER_EMAIL = process.env.E2E_ADMIN_EMAIL as string
const OWNER_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string
const PASSWORD = 'newcomer-pass-1!'

async function ownerPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const page = await context.newPage()
  await page.goto('/admin/login')
  await page.getByLabel('Email').fill(OWNER_EMAIL)
  await page.getByLabel('Password').fill(OWNER_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/admin$/)
  return page
}

/**
 * The row of the `nth` newest mail to `email` (0: the newest), found as staff would: the outbox's Recipient search.
 * Other specs' mails (a live session's to every learner of a course) can push the newcomer's past the first page.
 */
async function outboxRow(admin: Page, email: string, nth: number): Promise<Locator> {
  await admin.goto('/admin/outbox')
  await admin.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await admin.getByLabel('Recipient').fill(email)
  await admin.getByRole('button', { name: 'Find', exact: true }).click()
  await expect(admin.getByRole('button', { name: 'Show all' })).toBeVisible()
  const rows = admin.getByTestId('outbox-row')
  await expect(rows.first().or(admin.getByText(`No messages to ${email}`))).toBeVisible()
  await expect(rows.filter({ hasNotText: email })).toHaveCount(0)
  return rows.nth(nth)
}

/** The link of the `nth` newest verification mail to `email`, read as an admin would: from /admin/outbox. */
async function linkFromOutbox(admin: Page, email: string, nth = 0): Promise<string> {
  let row: Locator | undefined
  // No SMTP: the message is printed to the terminal by the job queue, within a second or two, and kept here.
  await expect(async () => {
    row = await outboxRow(admin, email, nth)
    await expect(row.getByText('Printed (no SMTP)')).toBeVisible({ timeout: 1000 })
  }).toPass({ timeout: 20_000 })
  await row!.getByRole('button', { name: /^View message/ }).click()
  const body = admin.getByTestId('outbox-body')
  await expect(body).toContainText('/verify-email?token=')
  const link = await body.getByRole('link').first().getAttribute('href')
  await admin.getByRole('button', { name: 'Close' }).click()
  expect(link).toMatch(/\/verify-email\?token=[a-z0-9]+$/)
  return link!
}

async function logIn(page: Page, email: string) {
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
}

test('a newcomer signs up, verifies from the outbox after resending, and logs in', async ({ page, browser }) => {
  // A long journey (two browsers, four mails, three log-ins): slow on a loaded machine.
  test.setTimeout(60_000)
  const email = `newcomer-${Date.now()}@example.test`
  await page.goto('/signup')
  await page.getByLabel('First name').fill('Nora')
  await page.getByLabel('Last name').fill('Newcomer')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByLabel('I agree to the').check()
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page).toHaveURL('/login', { timeout: 6000 })

  // Not verified: the refusal offers a new link instead of a dead end.
  await logIn(page, email)
  await expect(page.getByRole('alert').filter({ hasText: 'Please verify your email' })).toBeVisible()
  await expect(page.getByText('Login failed')).toBeVisible()
  await page.getByRole('button', { name: 'Resend verification e-mail' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'we have sent it a new verification link' }).first(),
  ).toBeVisible()

  const admin = await ownerPage(browser)
  const newest = await linkFromOutbox(admin, email)

  // The first link stopped working when the second was sent; its page offers a new one too.
  const first = await linkFromOutbox(admin, email, 1)
  expect(first).not.toBe(newest)
  await page.goto(first!)
  await expect(page.getByText('This verification link is invalid or has expired.')).toBeVisible()
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByRole('button', { name: 'Resend verification e-mail' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'we have sent it a new verification link' }).first(),
  ).toBeVisible()

  const latest = await linkFromOutbox(admin, email)
  expect(latest).not.toBe(newest)
  await page.goto(latest)
  await expect(page.getByText('Your email has been verified. You can now log in.')).toBeVisible()
  await page.getByRole('link', { name: 'Continue to sign-in' }).click()

  // A failed attempt's toast does not outlive the log-in that works.
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill('wrong-password-1')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByText('Login failed')).toBeVisible()
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByText('Login successful')).toBeVisible()
  await expect(page.getByText('Login failed')).toHaveCount(0)
  await expect(page.getByTestId('user-menu')).toBeVisible()
  await admin.context().close()
})

test('cut-off e-mailed links say the link is invalid, not how long a token must be', async ({ page }) => {
  // A mail program that wraps the long address leaves only its start in the link.
  await page.goto('/verify-email?token=3f9a')
  await expect(page.getByText('This verification link is invalid or has expired.')).toBeVisible()
  await expect(page.getByText(/expected string/)).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Resend verification e-mail' })).toBeVisible()
  // The reset link says so before a new password is typed.
  await page.goto('/reset-password?token=3f9a')
  await expect(page.getByText('This reset link is invalid or has expired. Please request a new one.')).toBeVisible()
  await expect(page.getByLabel('New password')).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Request a new link' })).toBeVisible()
})

test('an admin copies an invitation link and the invitee joins with it', async ({ browser }) => {
  const admin = await ownerPage(browser)
  await admin
    .getByRole('complementary', { name: 'Admin navigation' })
    .getByRole('link', { name: 'Team Members' })
    .click()
  const email = `invitee-${Date.now()}@example.test`
  await admin.getByRole('button', { name: 'Add Team Member' }).click()
  const dialog = admin.getByRole('dialog', { name: 'Add Team Member' })
  await dialog.getByLabel('Name').fill('Ivo Invitee')
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByLabel('Role').selectOption('editor')
  await dialog.getByRole('button', { name: 'Add Member' }).click()
  await expect(admin.getByText('Invitation created', { exact: true })).toBeVisible()
  await expect(admin.getByText('Invitation sent')).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Copy link' }).click()
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible()
  const link = await admin.evaluate(() => navigator.clipboard.readText())
  expect(link).toMatch(/\/admin\/accept-invite\?token=[a-z0-9]+$/)
  await expect(dialog.getByLabel(/Invitation link/)).toHaveValue(link)
  await dialog.getByRole('button', { name: 'Done' }).click()

  const invitee = await (await browser.newContext()).newPage()
  await invitee.goto(link)
  await invitee.getByLabel('Password', { exact: true }).fill('ivo-password-1')
  await invitee.getByLabel('Confirm password').fill('ivo-password-1')
  await invitee.getByRole('button', { name: 'Join the team' }).click()
  await expect(invitee).toHaveURL(/\/admin$/)
  await expect(invitee.getByTestId('admin-name')).toHaveText('Ivo Invitee')
  // An editor's dashboard and menu hold only what an editor may use: no outbox, no audit log, no error.
  await expect(invitee.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
  const sidebar = invitee.getByRole('complementary', { name: 'Admin navigation' })
  await expect(sidebar.getByRole('link', { name: 'Courses' })).toBeVisible()
  await expect(sidebar.getByRole('link', { name: /Outbox|Audit log/ })).toHaveCount(0)
  await expect(invitee.getByText('You do not have permission to do that')).toHaveCount(0)
  await invitee.context().close()
  await admin.context().close()
})

test('the site works under a second host name over plain http', async ({ browser, db, baseURL }) => {
  const other = new URL(baseURL!)
  other.hostname = 'localhost'
  const { createUser } = await import('../support/factories.ts')
  const user = await createUser(db, { password: PASSWORD })
  const page = await (await browser.newContext({ baseURL: other.origin })).newPage()
  const failures: string[] = []
  // Refused or blocked requests (mixed content, CSP, cookies) fail; one cancelled by the next navigation does not.
  page.on('requestfailed', (request) => {
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') failures.push(request.url())
  })
  await page.goto('/login')
  await expect(page).toHaveURL(`${other.origin}/login`)
  // A page of its own context (not the fixture's): wait for the app as a visitor's click would, for the toast.
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await logIn(page, user.email)
  await expect(page.getByText('Login successful')).toBeVisible()
  await page.goto('/account')
  await expect(page.getByRole('heading', { name: /account/i }).first()).toBeVisible()
  expect(failures).toEqual([])
  await page.context().close()
})

test('unknown pages and ids answer 404 with the not-found page', async ({ page, request }) => {
  for (const path of [
    '/no/such/page',
    '/courses/no-such-course',
    '/service/no-such-service',
    '/courses/category/nope',
  ]) {
    expect((await request.get(path)).status(), path).toBe(404)
  }
  expect((await request.get('/courses')).status()).toBe(200)
  const response = await page.goto('/no/such/page')
  expect(response?.status()).toBe(404)
  await expect(page.getByText("Oops! We couldn't find the page you're looking for.")).toBeVisible()
  await page.goto('/courses/no-such-course')
  await expect(page.getByText('404')).toBeVisible()
})

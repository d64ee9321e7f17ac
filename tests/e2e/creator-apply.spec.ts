// Applying to teach as people do it: a visitor on /teach is sent to sign up and comes back to the form, applies
// with a CV; another customer applies from a phone (390 px) with a sample video sent over tus; staff filter the queue, decline the first with a reason
// and approve the second, who then finds the Studio link in the user menu. The course page's instructor card leads
// to the instructor's profile and its courses.
import path from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { createUser } from '../support/factories.ts'
import { expect, signInAs, test } from './fixtures.ts'

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
const PHONE = { width: 390, height: 844 }
const SAMPLE_VIDEO = path.resolve('public/media/promo-1.mp4')
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const PROPOSAL =
  'A practical course on writing SQL for analytics: joins, window functions, and query plans, for analysts who ' +
  'already know spreadsheets and want to answer their own questions. Eight sections, each ending with a project ' +
  'on a real public data set, and short quizzes along the way.'

/** Fills and sends the application form on /teach/apply. */
async function apply(page: Page, headline: string, categories: string[], attachment?: Buffer, video?: string) {
  await page.getByLabel('Headline / expertise').fill(headline)
  for (const name of categories) await page.getByRole('checkbox', { name }).check()
  const proposal = page.getByLabel('Your proposal: what course, for whom')
  // Too short first: the counter and the message say so.
  await proposal.fill('Too short.')
  await expect(page.getByText(/^10 of 200–5000 characters$/)).toBeVisible()
  await page.getByRole('button', { name: 'Send application' }).click()
  await expect(page.getByText('Proposal must be at least 200 characters.')).toBeVisible()
  await proposal.fill(PROPOSAL)
  await expect(page.getByText(`${PROPOSAL.length} of 200–5000 characters`)).toBeVisible()
  await page.getByLabel('Website').fill('https://example.com/me')
  await page.getByLabel('LinkedIn').fill('https://www.linkedin.com/in/someone')
  await page.getByLabel('YouTube').fill('https://www.youtube.com/@someone')
  if (attachment) {
    await page
      .getByLabel('Your CV (PDF)')
      .setInputFiles({ name: 'cv.pdf', mimeType: 'application/pdf', buffer: attachment })
  }
  if (video) {
    // The lesson videos' uploader (tus): progress, then the server's check of the file.
    await page.getByLabel('Or a sample video (MP4, MOV or WebM, up to 500 MB)').setInputFiles(video)
    await expect(page.getByText(`${path.basename(video)} uploaded.`)).toBeVisible({ timeout: 20_000 })
  }
  await page.getByRole('button', { name: 'Send application' }).click()
  await expect(page).toHaveURL('/teach/application')
  await expect(page.getByTestId('application-status')).toHaveText('Submitted')
}

async function staffPage(browser: Browser, baseURL: string, db: Parameters<typeof signInAs>[2]) {
  const context = await browser.newContext({ baseURL })
  const page = await context.newPage()
  const admin = await createUser(db, { role: 'admin', firstName: 'Ada', lastName: 'Admin' })
  await signInAs(page, baseURL, db, admin)
  return page
}

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth)

test('a visitor signs up to apply, staff decline one application and approve another', async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const email = `teacher-${unique()}@example.test`

  // /teach: the visitor is sent to sign up, and comes back to the form after signing in.
  await page.goto('/teach')
  await expect(page.getByRole('heading', { name: 'Teach on SkillForge', level: 1 })).toBeVisible()
  await expect(page.getByTestId('teach-plan')).toHaveCount(3)
  await page.getByRole('link', { name: 'Apply to teach', exact: true }).click()
  await expect(page).toHaveURL('/signup?redirect=%2Fteach%2Fapply')
  await page.getByLabel('First name').fill('Tara')
  await page.getByLabel('Last name').fill('Teacher')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill('long-enough-1!')
  await page.getByLabel('I agree to the').check()
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page).toHaveURL('/login?redirect=%2Fteach%2Fapply', { timeout: 8000 })
  // The sign-up form, with its own Email and Password, shows until the log-in page's code has come.
  await expect(page.getByRole('heading', { name: 'Welcome back', level: 1 })).toBeVisible()
  // The e-mail is verified from the mailed link in accounts.spec.ts; here straight in the database.
  await db.updateTable('users').set({ email_verified: true }).where('email', '=', email).execute()
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill('long-enough-1!')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL('/teach/apply')
  await expect(page.getByRole('heading', { name: 'Apply to teach', level: 1 })).toBeVisible()
  await apply(page, 'Data engineer, 10 years of SQL', ['Development', 'Business'], PDF)
  await expect(page.getByText('Data engineer, 10 years of SQL')).toBeVisible()
  // Their own file, from the status page.
  const ownFile = await page.request.get((await page.getByRole('link', { name: 'cv.pdf' }).getAttribute('href'))!)
  expect(ownFile.status()).toBe(200)
  expect((await ownFile.body()).subarray(0, 5).toString()).toBe('%PDF-')
  // /teach now shows the open application instead of a second form, and so does /teach/apply.
  await page.goto('/teach')
  await expect(page.getByTestId('application-status')).toHaveText('Submitted')
  await page.goto('/teach/apply')
  await expect(page.getByTestId('application-status')).toHaveText('Submitted')
  await expect(page.getByRole('button', { name: 'Send application' })).toHaveCount(0)

  // A second customer applies from a phone: the form fits 390 px.
  const phone = await browser.newContext({ baseURL, viewport: PHONE, isMobile: true, hasTouch: true })
  const second = await phone.newPage()
  const secondUser = await createUser(db, { firstName: 'Omar', lastName: `Owens${unique()}` })
  await signInAs(second, baseURL!, db, secondUser)
  await second.goto('/teach/apply')
  await second.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await expect(second.getByRole('button', { name: 'Send application' })).toBeVisible()
  expect(await noSideScroll(second)).toBeLessThanOrEqual(PHONE.width)
  await apply(second, 'Photographer and editor', ['Design'], undefined, SAMPLE_VIDEO)
  expect(await noSideScroll(second)).toBeLessThanOrEqual(PHONE.width)
  const sample = await second.request.get(
    (await second.getByRole('link', { name: 'promo-1.mp4' }).getAttribute('href'))!,
  )
  expect(sample.status()).toBe(200)
  expect(sample.headers()['content-type']).toBe('video/mp4')

  // Staff: the queue, filtered; the first application is declined with a reason.
  const staff = await staffPage(browser, baseURL!, db)
  await staff.goto('/admin/creator-applications')
  await staff.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await expect(staff.getByRole('heading', { name: 'Creator applications' })).toBeVisible()
  const rows = staff.getByTestId('creator-application')
  await expect(rows.filter({ hasText: email })).toHaveCount(1)
  await staff.getByLabel('Status').selectOption('submitted')
  await expect(staff).toHaveURL(/status=submitted/)
  await staff.getByLabel('Category').selectOption({ label: 'Design' })
  await expect(staff).toHaveURL(/category=design/)
  await expect(rows.filter({ hasText: secondUser.email })).toHaveCount(1)
  await expect(rows.filter({ hasText: email })).toHaveCount(0)
  await staff.getByLabel('Age').selectOption({ label: 'Older than 7 days' })
  await expect(staff.getByText('No applications found')).toBeVisible()
  await staff.getByLabel('Age').selectOption({ label: 'Any age' })
  await staff.getByLabel('Category').selectOption({ label: 'Development' })
  await rows.filter({ hasText: email }).getByRole('link', { name: 'Tara Teacher' }).click()
  await expect(staff.getByRole('heading', { name: 'Tara Teacher', level: 1 })).toBeVisible()
  await expect(staff.getByTestId('admin-application-status')).toHaveText('Submitted')
  await expect(staff.getByRole('link', { name: 'LinkedIn: https://www.linkedin.com/in/someone' })).toBeVisible()
  const download = staff.getByRole('link', { name: 'Download cv.pdf' })
  const file = await staff.request.get((await download.getAttribute('href'))!)
  expect(file.status()).toBe(200)
  expect(file.headers()['content-type']).toBe('application/pdf')
  expect((await file.body()).equals(PDF)).toBe(true)
  // A reason is required.
  await staff.getByRole('button', { name: 'Decline with this reason' }).click()
  await expect(staff.getByText('Please give a reason of at least 10 characters.')).toBeVisible()
  await expect(staff.getByLabel('Reason for declining (sent to the applicant)')).toHaveAttribute('aria-invalid', 'true')
  const reason = 'We already have two SQL courses at this level; please apply with an advanced topic.'
  await staff.getByLabel('Reason for declining (sent to the applicant)').fill(reason)
  await staff.getByRole('button', { name: 'Decline with this reason' }).click()
  await expect(staff.getByTestId('admin-application-status')).toHaveText('Declined')
  await expect(staff.getByRole('button', { name: 'Approve' })).toHaveCount(0)

  await page.goto('/teach/application')
  await expect(page.getByTestId('application-status')).toHaveText('Declined')
  await expect(page.getByText(reason)).toBeVisible()
  await expect(page.getByText(/You can apply again from/)).toBeVisible()

  // The second application is approved; its applicant finds the studio.
  await staff.goto('/admin/creator-applications?status=submitted')
  await rows.filter({ hasText: secondUser.email }).getByRole('link').first().click()
  await expect(staff.getByTestId('admin-application-status')).toHaveText('Submitted')
  await staff.getByRole('button', { name: 'Approve' }).click()
  await expect(staff.getByTestId('admin-application-status')).toHaveText('Approved')

  await second.goto('/teach/application')
  await expect(second.getByTestId('application-status')).toHaveText('Approved')
  await expect(second.getByRole('link', { name: 'Go to your studio' })).toHaveAttribute('href', '/studio')
  await second.setViewportSize({ width: 1280, height: 800 })
  await second.goto('/')
  await second.getByTestId('user-menu').click()
  await expect(second.getByRole('menuitem', { name: 'Studio' })).toHaveAttribute('href', '/studio')
  // The first applicant is no creator: no Studio in their menu.
  await page.goto('/')
  await page.getByTestId('user-menu').click()
  await expect(page.getByRole('menuitem', { name: 'My Account' })).toBeVisible()
  await expect(page.getByRole('menuitem', { name: 'Studio' })).toHaveCount(0)

  // The new creator's public profile exists, named after them.
  const profile = await db
    .selectFrom('instructors')
    .select('slug')
    .where('user_id', '=', secondUser.id)
    .executeTakeFirstOrThrow()
  await second.goto(`/instructors/${profile.slug}`)
  await expect(second.getByRole('heading', { name: `Omar ${secondUser.lastName}`, level: 1 })).toBeVisible()
  await phone.close()
  await staff.context().close()
})

test('the course page links to its instructor, whose page lists their courses', async ({ page, db }) => {
  const course = await db
    .selectFrom('courses')
    .innerJoin('instructors', 'instructors.id', 'courses.instructor_id')
    .select(['courses.id', 'courses.title', 'instructors.slug', 'instructors.name'])
    .where('courses.status', '=', 'published')
    .orderBy('courses.id')
    .executeTakeFirstOrThrow()
  await page.goto(`/courses/${course.id}`)
  await page.getByRole('link', { name: course.name, exact: true }).click()
  await expect(page).toHaveURL(`/instructors/${course.slug}`)
  await expect(page.getByRole('heading', { name: course.name, level: 1 })).toBeVisible()
  await expect(page.getByRole('link', { name: course.title }).first()).toBeVisible()
  // At 390 px the profile fits too.
  await page.setViewportSize(PHONE)
  await page.reload()
  expect(await noSideScroll(page)).toBeLessThanOrEqual(PHONE.width)

  const unknown = await page.goto('/instructors/no-such-instructor')
  expect(unknown?.status()).toBe(404)
})

test('on a phone the CV picker is a bordered, tap-sized button like the sample video’s', async ({ page, login }) => {
  await login()
  await page.setViewportSize(PHONE)
  await page.goto('/teach/apply')
  const look = (label: string | RegExp) =>
    page.getByLabel(label).evaluate((input) => {
      const button = getComputedStyle(input, '::file-selector-button')
      return { height: Math.round(input.getBoundingClientRect().height), border: button.borderTopWidth }
    })
  const video = await look(/^Or a sample video/)
  // Before, the reset left "Choose File" borderless, 25 px high, running into "No file chosen".
  expect(await look('Your CV (PDF)')).toEqual(video)
  expect(video.height).toBeGreaterThanOrEqual(44)
  expect(video.border).toBe('1px')
})

// "Download my data" in the browser (issue 28): a customer with a paid order asks for their data on Account →
// Security, confirming with their password (a wrong one is refused and nothing is queued); the export job runs (the server's clock moved a minute, TEST_CLOCK), the page offers the ZIP, and the ZIP
// holds the order's invoice PDF and their learning progress.
import { readFile } from 'node:fs/promises'
import { strFromU8, unzipSync } from 'fflate'
import { ownedCourse, sell } from '../support/earnings.ts'
import { createUser } from '../support/factories.ts'
import { advanceServerClock, expect, followServerClock, signInAs, test } from './fixtures.ts'

// The clock specs share one server whose clock the earlier ones moved on: this process follows it.
test.beforeEach(({ page, baseURL }) => followServerClock(page, baseURL as string))

test('a customer downloads their data: the ZIP holds their invoice and their progress', async ({
  page,
  db,
  baseURL,
}) => {
  const seller = await createUser(db)
  const course = await ownedCourse(db, seller.id, 1999, `Export Course ${Date.now().toString(36)}`)
  const sale = await sell(db, [course])
  const invoice = await db
    .selectFrom('invoices')
    .select('number')
    .where('user_id', '=', sale.buyer.id)
    .executeTakeFirstOrThrow()
  await signInAs(page, baseURL as string, db, sale.buyer)

  await page.goto('/account/security')
  const section = page.getByRole('region', { name: 'Download my data' })
  // A fresh proof first: a wrong password is refused, and nothing is prepared.
  await section.getByLabel('Your password').fill('not-my-password')
  await section.getByRole('button', { name: 'Download my data' }).click()
  await expect(section.getByRole('alert')).toContainText('That password is not right.')
  await expect(section.getByRole('list', { name: 'Your data exports' })).toHaveCount(0)
  await section.getByLabel('Your password').fill(sale.buyer.password)
  await section.getByRole('button', { name: 'Download my data' }).click()
  await expect(page.getByText('We are preparing your data')).toBeVisible()
  await expect(section.getByRole('button', { name: 'Being prepared…' })).toBeDisabled()

  const { ran } = await advanceServerClock(page, baseURL as string, 60)
  expect(ran).toContain('privacy.exports')
  const link = section.getByRole('link', { name: /Download ZIP/ })
  await expect(link).toBeVisible({ timeout: 15_000 })
  const downloading = page.waitForEvent('download')
  await link.click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^skillforge-data-\d{4}-\d{2}-\d{2}\.zip$/)
  const files = unzipSync(new Uint8Array(await readFile((await download.path()) as string)))
  const pdf = files[`invoices/${invoice.number.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`]
  expect(pdf && strFromU8(pdf.slice(0, 5))).toBe('%PDF-')
  const learning = JSON.parse(strFromU8(files['learning.json'] as Uint8Array))
  expect(learning.access.map((grant: { course_id: string }) => grant.course_id)).toContain(course.id)
  expect(Object.keys(learning)).toEqual([
    'progress',
    'completions',
    'certificates',
    'access',
    'quizAttempts',
    'premiumWatchTime',
    'postsReported',
  ])
})

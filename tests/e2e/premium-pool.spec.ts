// The Premium pool in the browser (issue 31): a creator switches their course into Premium from its Details tab with
// the keyboard (it stays on after a reload), and once a month's pool is computed the Earnings page lists the course
// with the minutes Premium members watched and its share, which the ledger entries name too.
import { recordPoolMonth } from '../../src-server/earnings/premium-pool.ts'
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('a creator includes a course in Premium and sees its pool share on Earnings', async ({ page, db, baseURL }) => {
  const creator = await createCreator(db, { plan: 'pro' })
  const title = `Pool Course ${Date.now().toString(36)}`
  const course = await createCreatorCourse(db, creator, { title, status: 'published' })
  await db.updateTable('courses').set({ included_in_premium: false }).where('id', '=', course.id).execute()
  await signInAs(page, baseURL as string, db, creator)

  await page.goto(`/studio/courses/${course.id}`)
  const premium = page.getByRole('checkbox', { name: 'Include this course in Premium' })
  await expect(premium).not.toBeChecked()
  await premium.focus()
  await page.keyboard.press('Space')
  await expect(page.getByText('Your course is now included in Premium.')).toBeVisible()
  await expect(premium).toBeChecked()
  await page.reload()
  await expect(page.getByRole('checkbox', { name: 'Include this course in Premium' })).toBeChecked()

  // The month's job ran: 7 minutes of the course earned the whole $30.00 pool.
  await db.transaction().execute((trx) =>
    recordPoolMonth(trx, {
      month: '2021-03',
      currency: 'USD',
      revenueMinor: 10_000,
      refundedMinor: 0,
      basisPoints: 3000,
      courses: [{ courseId: course.id, creatorId: creator.id, title, seconds: 420 }],
    }),
  )
  await page.goto('/studio/earnings')
  await expect(page.getByRole('heading', { name: 'Premium pool' })).toBeVisible()
  await expect(page.getByText(`${title}: 0 min watched by Premium members`)).toBeVisible()
  const row = page.getByRole('region', { name: 'Premium pool shares table' }).getByRole('row', { name: /2021-03/ })
  await expect(row).toContainText(title)
  await expect(row).toContainText('7 min')
  await expect(row).toContainText('$30.00')
  await expect(page.getByRole('region', { name: 'Ledger entries table' })).toContainText(
    `Premium pool 2021-03: ${title} (7 min watched)`,
  )
})

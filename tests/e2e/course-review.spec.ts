// A creator's course through review in the browser: the creator (a Basic plan, a course of 5 lessons made in the
// database) submits from the publish page, staff request a change in /admin/course-reviews, the creator reads the
// comment, fixes the course and submits again, staff approve, and a visitor finds the course in catalogue search.
import { REVIEW_CHANGED_SINCE_OPENED } from '../../src-server/flows/course-review-decisions.ts'
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('a creator submits, staff ask for a change, the creator fixes it, staff approve, search finds it', async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000)
  const title = `Tidepool Ecology ${Date.now().toString(36)}`
  const creator = await createCreator(db, { plan: 'basic' })
  const course = await createCreatorCourse(db, creator, { title })
  await signInAs(page, baseURL as string, db, creator)

  await page.goto(`/studio/courses/${course.id}/publish`)
  await expect(page.getByTestId('course-status')).toHaveText('Draft')
  await expect(page.getByTestId('checklist').getByRole('listitem')).toHaveCount(7)
  await page.getByRole('button', { name: 'Submit for review' }).click()
  await expect(page.getByTestId('course-status')).toHaveText('In review')

  // Staff, in their own browser context.
  const staffContext = await browser.newContext({ baseURL })
  const staff = await staffContext.newPage()
  const editor = await createUser(db, { role: 'editor' })
  await signInAs(staff, baseURL as string, db, editor)
  await staff.goto('/admin/course-reviews')
  await staff.getByRole('link', { name: title }).click()
  await expect(staff.getByRole('heading', { name: title })).toBeVisible()
  await staff.getByLabel('About (comment 1)').selectOption('title')
  await staff.getByLabel('What should change (comment 1)').fill('Say who the course is for in the title.')
  await staff.getByRole('button', { name: 'Request changes' }).click()
  await expect(staff).toHaveURL(/\/admin\/course-reviews$/)

  // The creator reads the comment, fixes the title and submits again.
  await page.reload()
  await expect(page.getByTestId('course-status')).toHaveText('Changes requested')
  await expect(page.getByTestId('review-comments')).toContainText('Title: Say who the course is for in the title.')
  const fixed = `${title} for Beginners`
  await db.updateTable('courses').set({ title: fixed }).where('id', '=', course.id).execute()
  await page.reload()
  await page.getByRole('button', { name: 'Submit for review' }).click()
  await expect(page.getByTestId('course-status')).toHaveText('In review')

  await staff.goto('/admin/course-reviews')
  await staff.getByRole('link', { name: fixed }).click()
  // The queue's next answer comes slowly: the page must wait for it, not show the list it had before the approval.
  await staff.route('**/trpc/admin.courseReviews.list?**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await route.continue()
  })
  // The creator edits the title again while staff read the page: approving what staff did not see is refused, and
  // the page shows the course as it is now.
  const final = `${fixed} at Home`
  // (The page has read the course first: an edit before that would simply be what it shows.)
  await expect(staff.getByRole('heading', { name: fixed, exact: true })).toBeVisible()
  await db.updateTable('courses').set({ title: final }).where('id', '=', course.id).execute()
  await staff.getByRole('button', { name: 'Approve and publish' }).click()
  await expect(staff.getByText(REVIEW_CHANGED_SINCE_OPENED)).toBeVisible()
  await expect(staff.getByRole('heading', { name: final })).toBeVisible()
  await staff.getByRole('button', { name: 'Approve and publish' }).click()
  await expect(staff).toHaveURL(/\/admin\/course-reviews$/)
  // The queue the approval leads back to is already without the course (not a cached list fetched again after).
  await expect(staff.getByRole('heading', { level: 1 })).toBeVisible()
  expect(await staff.getByRole('link', { name: final }).count()).toBe(0)
  await staffContext.close()

  await page.reload()
  await expect(page.getByTestId('course-status')).toHaveText('Published')

  const visitorContext = await browser.newContext({ baseURL })
  const visitor = await visitorContext.newPage()
  await visitor.goto(`/courses?search=${encodeURIComponent('Tidepool Ecology')}`)
  await expect(visitor.getByRole('link', { name: final }).first()).toBeVisible()
  await visitorContext.close()
})

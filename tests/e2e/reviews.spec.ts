// Verified reviews in the browser: a buyer who completed a lesson writes a review with the keyboard and sees the
// course's average change (edits and deletes it too); staff hide a review from the admin area and the course's
// numbers follow.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { recordLessonProgress } from '../support/learners.ts'
import { buyerOfCourse } from '../support/learning.ts'
import { expect, test } from './fixtures.ts'

/** The visible reviews' average to one decimal and count, read from the rows, plus a review of `extra` stars. */
async function averageWith(db: Kysely<Database>, courseId: string, extra: number[] = []) {
  const rows = await db
    .selectFrom('course_reviews')
    .select('rating')
    .where('course_id', '=', courseId)
    .where('hidden_at', 'is', null)
    .execute()
  const ratings = [...rows.map((row) => row.rating), ...extra]
  const sum = ratings.reduce((total, rating) => total + rating, 0)
  return { average: (Math.round((sum * 10) / ratings.length) / 10).toFixed(1), count: ratings.length }
}

const COURSE = 'dropshipping-quick-start'

test('a learner who completed a lesson reviews the course and sees its average change', async ({ page, db, login }) => {
  await page.goto(`/courses/${COURSE}`)
  await expect(page.getByRole('link', { name: 'Log in to review this course' })).toBeVisible()

  const learner = await login({ firstName: 'Robin', lastName: 'Quill' })
  await buyerOfCourse(db, COURSE, learner)
  await page.reload()
  await expect(page.getByText('Complete at least one lesson of this course to review it.')).toBeVisible()

  await recordLessonProgress(db, learner.id, COURSE)
  const before = await averageWith(db, COURSE)
  await page.reload()
  const average = page.getByTestId('rating-average')
  await expect(average).toHaveText(before.average)
  await expect(page.getByTestId('rating-count')).toHaveText(`${before.count} reviews`)

  // Keyboard only: the stars are radio buttons (arrow keys), then the text, then the button.
  await page.getByRole('radio', { name: '1 star', exact: true }).focus()
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('radio', { name: '5 stars' })).toBeChecked()
  await page.keyboard.press('Tab')
  await page.keyboard.type('Honest and practical: the checklists alone were worth it.')
  await expect(page.getByLabel('Your review (optional)')).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: 'Publish review' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByText('Thank you! Your review is published.')).toBeVisible()

  const after = await averageWith(db, COURSE)
  expect(after.count).toBe(before.count + 1)
  expect(after.average).not.toBe(before.average)
  await expect(average).toHaveText(after.average)
  await expect(page.getByTestId('rating-count')).toHaveText(`${after.count} reviews`)
  // The page header, the structured data and the review list follow too.
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}')
  expect(jsonLd.aggregateRating).toMatchObject({ ratingValue: Number(after.average), reviewCount: after.count })
  await expect(page.getByRole('img', { name: `${after.average} out of 5 stars` }).first()).toBeVisible()
  const newest = page.getByRole('list', { name: 'Reviews' }).getByTestId('review-item').first()
  await expect(newest).toContainText('Robin Q.')
  await expect(newest).toContainText('the checklists alone were worth it')

  await page.getByRole('button', { name: 'Edit review' }).click()
  await expect(page.getByRole('radio', { name: '5 stars' })).toBeFocused()
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await expect(page.getByRole('radio', { name: '3 stars' })).toBeChecked()
  await page.getByRole('button', { name: 'Save review' }).click()
  await expect(page.getByText('Your review has been updated.')).toBeVisible()
  await expect(average).toHaveText((await averageWith(db, COURSE)).average)

  await page.getByRole('button', { name: 'Delete' }).click()
  await page.getByRole('button', { name: 'Delete review' }).click()
  await expect(page.getByText('Your review has been deleted.')).toBeVisible()
  await expect(average).toHaveText(before.average)
  await expect(page.getByTestId('rating-count')).toHaveText(`${before.count} reviews`)
})

test('staff hide a review from the admin area and the course shows one review fewer', async ({ page, db }) => {
  const course = 'negotiation-skills'
  const before = await averageWith(db, course)
  await page.goto('/admin/login')
  await page.getByLabel('Email').fill(process.env.E2E_ADMIN_EMAIL as string)
  await page.getByLabel('Password').fill(process.env.E2E_ADMIN_PASSWORD as string)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/admin$/)
  await page
    .getByRole('complementary', { name: 'Admin navigation' })
    .getByRole('link', { name: 'Reviews', exact: true })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible()
  await expect(page.getByTestId('admin-review').first()).toBeVisible()
  // A course's reviews, from the course list.
  await page.getByRole('complementary', { name: 'Admin navigation' }).getByRole('link', { name: 'Courses' }).click()
  await page.getByRole('searchbox', { name: 'Search courses' }).fill('Negotiation')
  await page.getByRole('link', { name: /^Reviews of Negotiation/ }).click()
  await expect(page).toHaveURL(new RegExp(`/admin/reviews\\?course=${course}`))
  await expect(page.getByText('Reviews of one course.')).toBeVisible()
  await expect(page.getByTestId('admin-review')).toHaveCount(before.count)

  const row = page.getByTestId('admin-review').first()
  await row.getByRole('button', { name: /^Hide the review by/ }).click()
  await expect(page.getByText('Review hidden')).toBeVisible()
  await expect(row.getByText('Hidden', { exact: true })).toBeVisible()
  const hidden = await averageWith(db, course)
  expect(hidden.count).toBe(before.count - 1)

  await page.goto(`/courses/${course}`)
  await expect(page.getByTestId('rating-count')).toHaveText(`${hidden.count} reviews`)
  await expect(page.getByTestId('rating-average')).toHaveText(hidden.average)

  await page.goBack()
  await page
    .getByTestId('admin-review')
    .first()
    .getByRole('button', { name: /^Show the review by/ })
    .click()
  await expect(page.getByText('Review visible again')).toBeVisible()
  expect(await averageWith(db, course)).toEqual(before)
})

// The two team-invitation pages (course co-teaching, school team) share their card and accept step
// (components/team): a link cut short or unknown still shows the page's own heading and says what is wrong, and the
// token leaves the address bar there too (decision 0144), as it does on a link that works.
import { expect, test } from './fixtures.ts'

test('an invitation link cut short or unknown says so under each page’s heading', async ({ page, login }) => {
  await login()
  await page.goto('/course-invite?token=short')
  await expect(page.getByRole('heading', { name: 'Co-teach a course', level: 1 })).toBeVisible()
  await expect(page.getByText('This invitation link is incomplete')).toBeVisible()

  await page.goto('/course-invite?token=not-a-real-invitation-token')
  await expect(page.getByRole('heading', { name: 'Co-teach a course', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Invitation unavailable' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Accept the invitation' })).toHaveCount(0)
  await expect(page).toHaveURL(/\/course-invite$/)

  await page.goto('/school-invite?token=not-a-real-invitation-token')
  await expect(page.getByRole('heading', { name: 'Join a school’s team', level: 1 })).toBeVisible()
  await expect(page.getByRole('alert')).toContainText('This invitation link is invalid or has expired.')
  await expect(page.getByRole('button', { name: 'Accept the invitation' })).toHaveCount(0)
  await expect(page).toHaveURL(/\/school-invite$/)
})

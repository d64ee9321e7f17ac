// A creator's coupons in the studio: a Pro creator makes a code for one of their courses, turns it off and on again
// from the table (the table offers Enable on a disabled code, so the studio must honour it); and a code for all their
// courses, which the schema asks a creator for (the studio names the signed-in one).
import { randomBytes } from 'node:crypto'
import { createCreator, lapsePlan } from '../support/creator-courses.ts'
import { ownedCourse } from '../support/earnings.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('a creator disables their coupon and enables it again', async ({ page, db, baseURL }) => {
  const creator = await createCreator(db, { plan: 'pro' })
  const course = await ownedCourse(db, creator.id, 4999, `Coupon Course ${randomBytes(3).toString('hex')}`)
  const code = `STU${randomBytes(3).toString('hex').toUpperCase()}`
  await signInAs(page, baseURL as string, db, creator)

  await page.goto('/studio/coupons')
  const editor = page.getByRole('form', { name: 'New coupon' })
  await editor.getByLabel('Code').fill(code)
  await editor.getByLabel('Percent off').fill('10')
  await editor.getByLabel(course.title).check()
  await editor.getByRole('button', { name: 'Create coupon' }).click()
  const row = page.getByTestId('coupon-row').filter({ hasText: code })
  await expect(row).toContainText('Active')

  // With the keyboard: the button keeps focus while it turns into Enable (it never drops to the page).
  await row.getByRole('button', { name: `Disable ${code}` }).focus()
  await page.keyboard.press('Enter')
  await expect(row).toContainText('Off')
  await expect(row.getByRole('button', { name: `Enable ${code}` })).toBeFocused()
  await row.getByRole('button', { name: `Enable ${code}` }).click()
  await expect(row).toContainText('Active')
  const stored = await db.selectFrom('coupons').select('active').where('code', '=', code).executeTakeFirstOrThrow()
  expect(stored.active).toBe(true)

  // The plan lapses: the code is not offered to buyers, and its row says Paused, not Active.
  await lapsePlan(db, creator.id)
  await page.reload()
  await expect(page.getByText('Your codes below are paused')).toBeVisible()
  await expect(row.getByText('Paused', { exact: true })).toBeVisible()
  await expect(row).not.toContainText('Active')
})

test('a creator makes a code for all their courses, offered as “All your courses”', async ({ page, db, baseURL }) => {
  const creator = await createCreator(db, { plan: 'pro' })
  const code = `ALL${randomBytes(3).toString('hex').toUpperCase()}`
  await signInAs(page, baseURL as string, db, creator)

  await page.goto('/studio/coupons')
  const editor = page.getByRole('form', { name: 'New coupon' })
  await editor.getByLabel('Code').fill(code)
  await editor.getByLabel('Percent off').fill('15')
  await editor.getByLabel('Applies to').selectOption({ label: 'All your courses' })
  await editor.getByRole('button', { name: 'Create coupon' }).click()
  await expect(page.getByTestId('coupon-row').filter({ hasText: code })).toContainText('Active')
  const stored = await db
    .selectFrom('coupons')
    .select(['applies_to', 'creator_id'])
    .where('code', '=', code)
    .executeTakeFirstOrThrow()
  expect(stored).toEqual({ applies_to: 'creator', creator_id: creator.id })
})

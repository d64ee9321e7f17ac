// Staff end a member's plan from the Orders screen (decision 0096): a free trial ended now with the keyboard alone
// (the member then reads Cancelled on DATE), and a paid plan ended at the period's end on a 390 px phone.
import { giveEndedPlan } from '../support/shop.ts'
import { buyBasicByCard, paidOrderReference, staffOrderRow } from './buy-plan.ts'
import { expect, signInAs, test } from './fixtures.ts'

const DATE = String.raw`\d{1,2} \w+ \d{4}` // "1 December 2026" (formatDate's long day, decision 0095)

test('a free trial ended now, with the keyboard alone: no charge, Cancelled for staff and the member', async ({
  page,
  db,
  baseURL,
  login,
}) => {
  test.setTimeout(60_000)
  const member = await login() // first-time: the plan starts in its free trial
  await buyBasicByCard(page)
  const row = await staffOrderRow(page, db, baseURL!, await paidOrderReference(db, member.id))
  await expect(row.getByText(/^Basic plan — Free trial until/)).toBeVisible()

  const end = row.getByRole('button', { name: 'End membership' })
  await end.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'End free trial?' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('This makes no refund')
  // Escape closes it and gives focus back to the button that opened it.
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(end).toBeFocused()

  await page.keyboard.press('Enter')
  await expect(dialog).toBeVisible()
  const atPeriodEnd = dialog.getByRole('radio', { name: /^At the end of the current period/ })
  const now = dialog.getByRole('radio', { name: /^Now/ })
  await expect(atPeriodEnd).toBeChecked()
  // Tab reaches the chosen option of the group; an arrow key moves the choice to Now.
  for (let i = 0; i < 6 && !(await atPeriodEnd.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab')
  }
  await expect(atPeriodEnd).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(now).toBeChecked()
  await expect(dialog).toContainText('The free trial ends today and is never charged.')
  const confirm = dialog.getByRole('button', { name: 'End now' })
  for (let i = 0; i < 6 && !(await confirm.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab')
  }
  await expect(confirm).toBeFocused()
  await page.keyboard.press('Enter')

  await expect(dialog).toBeHidden()
  await expect(row.getByText(new RegExp(`^Basic plan — Cancelled on ${DATE}$`))).toBeVisible()
  await expect(row.getByRole('button', { name: 'End membership' })).toHaveCount(0)

  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, member)
  await page.goto('/account/membership')
  await expect(page.getByTestId('membership-status-text')).toHaveText(new RegExp(`^Cancelled on ${DATE}$`))
  await expect(page.getByRole('link', { name: 'Subscribe again' })).toBeVisible()
})

test('a paid plan ended at the period’s end on a 390 px phone: Cancels on DATE, Premium kept until then', async ({
  page,
  db,
  baseURL,
  login,
}) => {
  test.setTimeout(60_000)
  const member = await login()
  await giveEndedPlan(db, member.id) // had a plan before: no trial, the first month is charged
  await buyBasicByCard(page)
  await page.setViewportSize({ width: 390, height: 844 })
  const row = await staffOrderRow(page, db, baseURL!, await paidOrderReference(db, member.id))
  await expect(row.getByText(/^Basic plan — Active — renews on/)).toBeVisible()

  await row.getByRole('button', { name: 'End membership' }).click()
  const dialog = page.getByRole('dialog', { name: 'End membership?' })
  await expect(dialog).toBeVisible()
  const box = await dialog.boundingBox()
  expect(box!.x).toBeGreaterThanOrEqual(0)
  expect(box!.x + box!.width).toBeLessThanOrEqual(390)
  await expect(dialog.getByRole('radio', { name: /^At the end of the current period/ })).toBeChecked()
  await expect(dialog.getByText('The member keeps Premium until then and is not charged again.')).toBeVisible()
  await dialog.getByRole('button', { name: 'End at period end' }).click()

  await expect(dialog).toBeHidden()
  await expect(row.getByText(new RegExp(`^Basic plan — Cancels on ${DATE}$`))).toBeVisible()
  // It can still be ended now; opened again, the period's end is no longer offered.
  await row.getByRole('button', { name: 'End membership' }).click()
  await expect(dialog.getByRole('radio', { name: /^At the end of the current period/ })).toBeDisabled()
  await expect(dialog.getByRole('radio', { name: /^Now/ })).toBeChecked()
  await dialog.getByRole('button', { name: 'Keep membership' }).click()
  await expect(dialog).toBeHidden()

  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, member)
  await page.goto('/account/membership')
  await expect(page.getByTestId('membership-status-text')).toHaveText(new RegExp(`^Cancels on ${DATE}$`))
  await expect(page.getByRole('button', { name: 'Resume', exact: true })).toBeVisible()
})

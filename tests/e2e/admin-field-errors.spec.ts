// Admin dialogs tie the server's validation errors to their fields: aria-invalid, aria-describedby to a message
// under the field, focus on the first invalid field, no toast. Keyboard only: each save is Enter in a field.
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures.ts'

const OWNER_EMAIL = process.env.E2E_ADMIN_EMAIL as string

/** The field is invalid, says `message` under it (its description), and has the focus. */
async function expectFieldError(field: Locator, message: string) {
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await expect(field).toHaveAccessibleDescription(message)
  await expect(field).toBeFocused()
  const describedBy = (await field.getAttribute('aria-describedby')) ?? ''
  await expect(field.page().locator(`[id="${describedBy}"]`)).toHaveText(message)
}

/** The message is shown only under its field(s) (`count` of them): no toast or form alert repeats it. */
async function expectOnlyUnderFields(page: Page, message: string, count = 1) {
  // A toast would be created with the field errors; give its lazily loaded view a moment to show it.
  await page.waitForTimeout(500)
  await expect(page.getByText(message, { exact: true })).toHaveCount(count)
  await expect(page.getByRole('alert').filter({ hasText: message })).toHaveCount(0)
}

test('course dialog: required fields and a bad price are shown under their fields, the first one focused', async ({
  page,
  login,
}) => {
  await login({ role: 'editor' })
  await page.goto('/admin/courses')
  await page.getByRole('button', { name: 'Add New Course' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add New Course' })
  const title = dialog.getByLabel('Title *', { exact: true })
  const description = dialog.getByLabel('Description *', { exact: true })
  const price = dialog.getByLabel('Price ($)', { exact: true })

  await title.focus()
  await page.keyboard.press('Enter')
  await expectFieldError(title, 'Please fill in required fields')
  await expect(description).toHaveAttribute('aria-invalid', 'true')
  await expect(description).toHaveAccessibleDescription('Please fill in required fields')
  await expect(price).not.toHaveAttribute('aria-invalid', 'true')
  await expectOnlyUnderFields(page, 'Please fill in required fields', 2)

  await page.keyboard.type('Kotlin basics')
  await description.fill('From zero to coroutines.')
  await price.fill('abc')
  await price.press('Enter')
  await expectFieldError(price, 'Price must be a number')
  await expect(title).not.toHaveAttribute('aria-invalid', 'true')
  await expect(title).not.toHaveAttribute('aria-describedby', /./)
})

test('category dialog: a missing and a taken name are errors of the Name field', async ({ page, login }) => {
  await login({ role: 'editor' })
  await page.goto('/admin/categories')
  await page.getByRole('button', { name: 'Add New Category' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add New Category' })
  const name = dialog.getByLabel('Name *')

  await dialog.getByLabel('Description').focus()
  await dialog.getByRole('button', { name: 'Save Category' }).press('Enter')
  await expectFieldError(name, 'Category name is required')

  await name.fill('Development')
  await name.press('Enter')
  await expectFieldError(name, 'A category with this name already exists')
  await expectOnlyUnderFields(page, 'A category with this name already exists')
})

test('invite dialog: a bad address and an existing member are errors of the Email field', async ({ page, login }) => {
  await login({ role: 'admin' })
  await page.goto('/admin/users')
  await page.getByRole('button', { name: 'Add Team Member' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add Team Member' })
  const name = dialog.getByLabel('Name')
  const email = dialog.getByLabel('Email')

  await name.fill('Ann Other')
  await email.fill('not-an-address')
  await email.press('Enter')
  await expectFieldError(email, 'Please enter a valid email address.')
  await expect(name).not.toHaveAttribute('aria-invalid', 'true')

  await email.fill(OWNER_EMAIL)
  await email.press('Enter')
  await expectFieldError(email, 'This person is already a team member')
  await expectOnlyUnderFields(page, 'This person is already a team member')
})

// Pages load their data in their route loaders: after a client-side navigation the new page shows its content at
// once (no spinner under its heading), and /payment's redirects happen before the page renders.
import { expect, test } from './fixtures.ts'
import { watchPage } from './page-watch.ts'

test.describe('client-side navigation shows content, not a spinner', () => {
  test('course list → course detail', async ({ page }) => {
    const watch = await watchPage(page)
    await page.goto('/courses')
    const card = page.getByTestId('course-card').first()
    const title = (await card.getByRole('heading').textContent())?.trim() ?? ''

    await watch.reset()
    await card.getByRole('link', { name: title }).click()
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Course content' })).toBeVisible()
    expect((await watch.seen()).spinnersUnder).not.toContain(title)
  })

  test('a page without cart buttons → the cart', async ({ page, login }) => {
    await login()
    const watch = await watchPage(page)
    await page.goto('/about')
    await watch.reset()
    await page.getByTestId('cart-link').click()
    await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible()
    expect((await watch.seen()).spinnersUnder).not.toContain('Your Cart')
  })

  test('→ My Account, with its courses and orders sections', async ({ page, login }) => {
    await login()
    const watch = await watchPage(page)
    await page.goto('/courses')
    await watch.reset()
    await page.getByTestId('user-menu').click()
    await page.getByRole('menuitem', { name: 'My Account' }).click()
    await expect(page.getByRole('heading', { name: 'No orders yet' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'You have not enrolled in any course yet' })).toBeVisible()
    expect((await watch.seen()).spinnersUnder).not.toContain('My Account')
  })

  test('admin dashboard → Orders and Team Members', async ({ page, login }) => {
    await login({ role: 'admin' })
    const watch = await watchPage(page)
    await page.goto('/admin')
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
    const nav = page.getByRole('complementary', { name: 'Admin navigation' })

    await watch.reset()
    await nav.getByRole('link', { name: 'Orders', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible()
    await expect(page.getByRole('combobox', { name: 'Filter by status' })).toBeVisible()
    await nav.getByRole('link', { name: 'Team Members' }).click()
    await expect(page.getByRole('table')).toBeVisible()
    const seen = await watch.seen()
    expect(seen.spinnersUnder).not.toContain('Orders')
    expect(seen.spinnersUnder).not.toContain('Team Members')
  })
})

test.describe('/payment decides before it renders', () => {
  test('a visitor is sent to log in, coming back to the same currency', async ({ page }) => {
    const watch = await watchPage(page)
    await page.goto('/payment?currency=GBP')
    await expect(page).toHaveURL(/\/login\?redirect=%2Fpayment%3Fcurrency%3DGBP$/)
    await expect(page.getByText('Please log in to continue')).toBeVisible()
    expect((await watch.seen()).headings).not.toContain('Checkout')
  })

  test('an empty cart goes back to the cart without showing the checkout', async ({ page, login }) => {
    await login()
    const watch = await watchPage(page)
    await page.goto('/payment')
    await expect(page).toHaveURL(/\/cart$/)
    await expect(page.getByText('Your cart is empty').first()).toBeVisible()
    expect((await watch.seen()).headings).not.toContain('Checkout')
  })
})

test.describe('a link the server refuses for good', () => {
  test('a malformed or unknown id says so, without a Try Again that cannot help', async ({ page, login }) => {
    await login()
    await page.goto('/documents/invoice/not-a-document')
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load this document' })
    await expect(alert).toContainText('This link is not valid. Check the address, or go back to where you found it.')
    await expect(alert).not.toContainText('Invalid UUID')
    await expect(alert.getByRole('button', { name: 'Try Again' })).toHaveCount(0)
    // The error stands in the page's one main landmark (where Skip to content goes).
    await expect(page.getByRole('main')).toHaveCount(1)
    await expect(page.getByRole('main').getByRole('alert')).toContainText('This link is not valid')

    await page.goto('/account/messages/no-such-course')
    const missing = page.getByRole('alert').filter({ hasText: 'Could not load this conversation' })
    await expect(missing).toContainText('Course not found')
    await expect(missing.getByRole('button', { name: 'Try Again' })).toHaveCount(0)
  })

  test("in the admin area the error stands in the layout's main landmark, not a second one", async ({
    page,
    login,
  }) => {
    await login({ role: 'admin' })
    await page.goto('/admin/creator-applications/not-an-application')
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load this application' })
    await expect(alert).toContainText('This link is not valid')
    await expect(page.getByRole('main')).toHaveCount(1)
    await expect(page.getByRole('main').getByRole('alert')).toContainText('Could not load this application')
  })
})

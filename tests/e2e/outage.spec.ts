// While the database is down the server answers 503 SERVICE_UNAVAILABLE: pages say the service is temporarily
// unavailable and offer Try Again, actions say so in their toast, and refusals (4xx) are never retried.
import { OUTAGE } from '../../src-shared/outage.ts'
import { expect, test } from './fixtures.ts'
import { simulateOutage } from './outage.ts'

test.describe('database outage', () => {
  test('a page shows the outage with Try Again, retried 503s with back-off, then recovers', async ({ page }) => {
    // The first page arrives rendered by the server (no /trpc call from the browser): the outage meets the next page
    // the browser loads. A dispatched click navigates without the hover that would preload the page first.
    await page.goto('/')
    const outage = await simulateOutage(page)
    await page.getByRole('banner').getByRole('link', { name: 'Pricing', exact: true }).first().dispatchEvent('click')
    const alert = page.getByRole('alert')
    await expect(alert.getByRole('heading', { name: OUTAGE.title })).toBeVisible({ timeout: 15_000 })
    await expect(alert).toContainText(OUTAGE.message)
    // The first try and two more, a second and two seconds apart.
    expect(outage.calls.get('plans.list')).toBe(3)

    outage.on = false
    await alert.getByRole('button', { name: 'Try Again' }).click()
    await expect(page.getByTestId('plan-card')).toHaveCount(3)
    await expect(page.getByRole('alert')).toHaveCount(0)
  })

  test('after a client-side navigation too, in the admin area', async ({ page, login }) => {
    await login({ role: 'admin' })
    await page.goto('/admin')
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
    const outage = await simulateOutage(page, ['admin.team.list'])
    await page
      .getByRole('complementary', { name: 'Admin navigation' })
      .getByRole('link', { name: 'Team Members' })
      .click()
    const alert = page.getByRole('alert')
    await expect(alert.getByRole('heading', { name: OUTAGE.title })).toBeVisible({ timeout: 15_000 })
    // The admin layout stays; only the page shows the outage.
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible()

    outage.on = false
    await alert.getByRole('button', { name: 'Try Again' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Team Members' })).toBeVisible()
  })

  test('an outage when entering the admin area is not taken for being signed out', async ({ page, login }) => {
    await login({ role: 'admin' })
    await simulateOutage(page, ['admin.session.me'])
    await page.goto('/admin/orders')
    await expect(page.getByRole('heading', { name: OUTAGE.title })).toBeVisible({ timeout: 15_000 })
    await expect(page).toHaveURL(/\/admin\/orders$/)
  })

  test("an action's toast says the service is unavailable rather than a generic failure", async ({ page, login }) => {
    await login()
    await page.goto('/pricing')
    const pro = page.getByTestId('plan-card').filter({ has: page.getByRole('heading', { name: 'Pro', exact: true }) })
    await simulateOutage(page, ['cart.add'])
    await pro.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByText(OUTAGE.title)).toBeVisible()
    await expect(page.getByText(OUTAGE.message)).toBeVisible()
    await expect(page.getByText('Failed to add item to cart. Please try again.')).toHaveCount(0)
    await expect(pro.getByRole('button', { name: 'Add to Cart' })).toBeEnabled()
  })

  test('a refusal (4xx) is asked once, not retried', async ({ page }) => {
    const calls: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('admin.team.invitation')) calls.push(request.url())
    })
    await page.goto('/admin/accept-invite?token=not-a-real-invitation-token')
    const alert = page.getByRole('alert')
    await expect(alert.getByRole('heading', { name: 'Invitation unavailable' })).toBeVisible()
    await expect(alert).toContainText('This invitation link is invalid or has expired.')
    await page.waitForTimeout(1500)
    expect(calls).toHaveLength(1)
  })
})

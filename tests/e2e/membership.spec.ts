// A member runs their subscription alone: one plan in the cart (another replaces it), a card trial told truthfully,
// the fake Stripe's test clock brings the first charge into order history, Basic → Pro with the prorated amount
// shown first, cancel (Cancels on DATE) and resume, a failed renewal shows Past due (Update card, no Change plan), and
// the billing portal's new card makes it active again.
import { premiumMember } from '../support/learning.ts'
import { checkoutByCard } from './buy-plan.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('a failed first charge: Past due, and Premium stops once the grace days are over', async ({ page, login }) => {
  const user = await login()
  // This customer's subscription starts 12 days back on the fake Stripe's clock: the 7-day trial ended 5 days ago,
  // its first charge fails, and the 3 grace days after the trial are over by now. The journey below moves the
  // shared clock forward; this test sets it back to the server's time itself, so it holds in any order.
  await page.goto('/pricing')
  const card = page.getByTestId('plan-card').filter({ has: page.getByRole('heading', { name: 'Basic', exact: true }) })
  await card.getByRole('button', { name: 'Add to Cart' }).click()
  // The cart is read once the plan is in it: going there while the add is in flight found an empty cart.
  await expect(card.getByRole('button', { name: 'Added to cart' })).toBeDisabled()
  const stripe = await checkoutByCard(page, async (fake) => {
    const email = encodeURIComponent(user.email)
    expect((await page.request.post(`${fake}/fake/clock/reset`)).ok()).toBe(true)
    expect((await page.request.post(`${fake}/fake/card?email=${email}&fail=1&backdate_days=12`)).ok()).toBe(true)
  })
  expect((await page.request.post(`${stripe}/fake/clock/advance?days=0`)).ok()).toBe(true)

  await page.goto('/account/membership')
  await expect(page.getByTestId('membership-status-text')).toHaveText('Past due — update your card')
  await page.goto('/account/premium')
  await expect(page.getByTestId('membership-status')).toContainText('Free account')
})

test('membership: one plan in the cart, trial, first charge, change plan, cancel and resume, past due', async ({
  page,
  login,
}) => {
  test.setTimeout(90_000)
  const user = await login()

  // Adding a second plan replaces the first and says so.
  await page.goto('/pricing')
  const card = (name: string) =>
    page.getByTestId('plan-card').filter({ has: page.getByRole('heading', { name, exact: true }) })
  await card('Basic').getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByText('Basic plan added to cart')).toBeVisible()
  await page.getByRole('button', { name: 'Annual (Save 16%)' }).click()
  await card('Pro').getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByText('Pro (annual) replaced Basic (monthly) in your cart')).toBeVisible()
  await page.getByRole('button', { name: 'Monthly', exact: true }).click()
  await card('Basic').getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByText('Basic (monthly) replaced Pro (annual) in your cart')).toBeVisible()
  await page.goto('/cart')
  await expect(page.getByTestId('cart-item')).toHaveCount(1)

  // Card checkout: the fake Stripe's page, then a success page that tells the trial truthfully.
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
  await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
  await page.getByRole('button', { name: 'Start Free Trial' }).click()
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  const stripe = new URL(page.url()).origin
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page.getByTestId('trial-started')).toContainText(
    /Free trial started — first charge of \$9\.99 on \d+ \w+ \d{4}/,
  )
  // A plan alone took nothing today (with a course, the page says what the course took).
  await expect(page.getByTestId('trial-started')).toContainText('Nothing has been charged yet')

  await page.goto('/account/membership')
  const status = page.getByTestId('membership-status-text')
  await expect(status).toHaveText(/^Free trial until \d+ \w+ \d{4} — first charge of \$9\.99$/)
  // Nothing was charged yet: cancelling does not speak of being charged "again", and Premium's page names the first
  // charge, not a renewal.
  await page.getByRole('button', { name: 'Cancel membership' }).click()
  await expect(page.getByRole('dialog')).toContainText(
    /Your free trial stays until \d+ \w+ \d{4}; you will not be charged\./,
  )
  await page.getByRole('button', { name: 'Keep membership' }).click()
  await page.goto('/account/premium')
  await expect(page.getByTestId('membership-status')).toContainText(/First charge on \d+ \w+ \d{4}/)
  await page.goto('/account/membership')

  // The test clock passes the trial's end: the first charge shows in order history.
  const advance = (days: number) => page.request.post(`${stripe}/fake/clock/advance?days=${days}`)
  expect((await advance(8)).ok()).toBe(true)
  await page.goto('/account')
  const history = page.getByTestId('subscription-history')
  await expect(history).toContainText(/Free trial started — first charge of \$9\.99 on/)
  await expect(history).toContainText(/Paid \$9\.99 on \d+ \w+ \d{4}/)

  // Basic → Pro: the prorated amount first, then the change.
  await page.goto('/account/membership')
  await expect(status).toHaveText(/^Active — renews on .* for \$9\.99$/)
  await page.getByRole('button', { name: 'Change plan' }).click()
  await page.getByLabel('Plan', { exact: true }).selectOption({ label: 'Pro' })
  await page.getByRole('button', { name: 'Show price' }).click()
  const quote = page.getByTestId('proration-amount')
  await expect(quote).toContainText(/You pay \$\d+\.\d\d now \(prorated\), then \$19\.99 per month/)
  const amount = (await quote.textContent())?.match(/\$(\d+\.\d\d)/)?.[1]
  await page.getByRole('button', { name: `Confirm and pay $${amount}` }).click()
  await expect(page.getByText('Your plan is now Pro (monthly)')).toBeVisible()
  await expect(status).toHaveText(/^Active — renews on .* for \$19\.99$/)

  // Cancel at the period's end, then resume.
  await page.getByRole('button', { name: 'Cancel membership' }).click()
  await page.getByLabel('Reason (optional)').fill('Trying another tool')
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel membership' }).click()
  await expect(status).toHaveText(/^Cancels on \d+ \w+ \d{4}$/)
  // The button pressed is gone: focus is on the new status, not back at the top of the page.
  await expect(status).toBeFocused()
  await page.getByRole('button', { name: 'Resume' }).click()
  await expect(page.getByText('Your membership will continue')).toBeVisible()
  await expect(status).toHaveText(/^Active — renews on/)
  await expect(status).toBeFocused()

  // The card fails at the next renewal: past due.
  expect((await page.request.post(`${stripe}/fake/card?email=${encodeURIComponent(user.email)}&fail=1`)).ok()).toBe(
    true,
  )
  expect((await advance(32)).ok()).toBe(true)
  await page.reload()
  await expect(status).toHaveText('Past due — update your card')
  // No plan change while a payment is owed (it would credit a period never paid): the card comes first.
  await expect(page.getByRole('button', { name: 'Change plan' })).toHaveCount(0)

  // Update card: Stripe's customer portal, where a new card pays what is open; back in the shop it is active.
  await page.getByRole('button', { name: 'Update card' }).click()
  await expect(page.getByRole('heading', { name: 'Fake Billing Portal' })).toBeVisible()
  await page.getByRole('button', { name: 'Update card' }).click()
  await page.getByRole('link', { name: 'Return to the shop' }).click()
  await expect(status).toHaveText(/^Active — renews on .* for \$19\.99$/)
  await expect(page.getByRole('button', { name: 'Change plan' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Manage billing' })).toBeVisible()

  // A member sees their plan on pricing instead of buying it twice.
  await page.goto('/pricing')
  await expect(card('Pro').getByRole('button', { name: 'Your current plan' })).toBeDisabled()
  await expect(card('Basic').getByRole('link', { name: 'Change plan' })).toBeVisible()
  await expect(page.getByTestId('trial-used')).toBeVisible()
  // The closing band offers no free trial to a member: it leads to their plan.
  await expect(page.getByRole('link', { name: 'Start Free Trial' })).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Manage your plan' })).toHaveAttribute('href', '/account/membership')
})

test('a cancelled membership’s Premium page says when it ends, not that it renews', async ({ page, db, baseURL }) => {
  const { user } = await premiumMember(db)
  await signInAs(page, baseURL as string, db, user)
  await page.goto('/account/premium')
  await expect(page.getByTestId('membership-status')).toContainText(/Renews on \d+ \w+ \d{4}/)
  await page.goto('/account/membership')
  await page.getByRole('button', { name: 'Cancel membership' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel membership' }).click()
  const status = page.getByTestId('membership-status-text')
  await expect(status).toHaveText(/^Cancels on \d+ \w+ \d{4}$/)
  const ends = (await status.textContent())?.replace('Cancels on ', '') as string
  await page.goto('/account/premium')
  await expect(page.getByTestId('membership-status')).toContainText(`Cancels on ${ends}`)
  await expect(page.getByTestId('membership-status')).not.toContainText('Renews')
})

test('a cancelled bank-transfer membership no longer promises a renewal order', async ({ page, db, baseURL }) => {
  const { user } = await premiumMember(db)
  await signInAs(page, baseURL as string, db, user)
  await page.goto('/account/membership')
  const renewalOrder = page.getByText('we send a renewal order 7 days before each renewal', { exact: false })
  await expect(renewalOrder).toBeVisible()
  await page.getByRole('button', { name: 'Cancel membership' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel membership' }).click()
  await expect(page.getByTestId('membership-status-text')).toHaveText(/^Cancels on \d+ \w+ \d{4}$/)
  await expect(renewalOrder).toHaveCount(0)
  // Resumed, it renews by a renewal order again.
  await page.getByRole('button', { name: 'Resume' }).click()
  await expect(page.getByTestId('membership-status-text')).toHaveText(/^Active — renews on /)
  await expect(renewalOrder).toBeVisible()
})

// A member whose plan ended sees what happened (issue 38): cancelled in Stripe's portal ("Cancelled on DATE"),
// lapsed after failed payments ("Ended on DATE — payment failed"), refunded by staff ("Refunded on DATE"); each
// with Subscribe again and the plan's invoices still listed, and staff read the same words beside the order.
import type { Page } from '@playwright/test'
import { createUser } from '../support/factories.ts'
import { giveEndedPlan } from '../support/shop.ts'
import { buyBasicByCard, paidOrderReference, staffOrderRow } from './buy-plan.ts'
import { expect, signInAs, test } from './fixtures.ts'

const DATE = String.raw`\d{1,2} \w+ \d{4}` // "1 December 2026" (formatDate's long day, decision 0095)

/** `charged`: money was taken (the order's invoice is listed); a free trial whose first charge failed has none. */
async function expectEnded(page: Page, words: RegExp, { charged = true } = {}) {
  await page.goto('/account/membership')
  await expect(page.getByRole('heading', { name: 'Basic plan, billed monthly' })).toBeVisible()
  await expect(page.getByTestId('membership-status-text')).toHaveText(words)
  await expect(page.getByRole('link', { name: 'Subscribe again' })).toHaveAttribute('href', '/pricing')
  await expect(page.getByRole('button', { name: 'Cancel membership' })).toHaveCount(0)
  const invoices = page.getByRole('region', { name: 'Invoices' })
  if (charged) await expect(invoices.getByRole('link', { name: /^View invoice INV-/ })).not.toHaveCount(0)
  else await expect(invoices).toHaveCount(0)
  await page.goto('/account')
  await expect(page.getByText(new RegExp(`^Basic plan — ${words.source.slice(1, -1)}$`))).toBeVisible()
  await expect(page.getByText('Free account')).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'View membership' })).toBeVisible()
  // Premium's page claims only what is built: the rest says it is coming (issue 34).
  await page.goto('/account/premium')
  const benefits = page.getByRole('region', { name: 'Premium benefits' }).getByRole('listitem')
  await expect(benefits.filter({ hasText: 'Unlimited access to premium courses' })).not.toContainText('coming soon')
  // Every benefit is built (issue 34) and links to its feature; none says "coming soon".
  for (const [name, href] of [
    ['Direct messaging with instructors', '/account/messages'],
    ['Offline downloads', '/saved'],
    ['Monthly live webinars', '/live'],
  ]) {
    await expect(benefits.getByRole('link', { name })).toHaveAttribute('href', href as string)
  }
  await expect(page.getByRole('region', { name: 'Premium benefits' })).not.toContainText('coming soon')
}

test('a plan cancelled in Stripe’s portal: Cancelled on DATE, Subscribe again, its invoice still listed', async ({
  page,
  db,
  login,
}) => {
  test.setTimeout(60_000)
  // A member before: no free trial, so the plan's first month is charged and invoiced.
  await giveEndedPlan(db, (await login()).id)
  await buyBasicByCard(page)
  await page.goto('/account/membership')
  await page.getByRole('button', { name: 'Manage billing' }).click()
  await expect(page.getByRole('heading', { name: 'Fake Billing Portal' })).toBeVisible()
  await page.getByRole('button', { name: 'Cancel plan' }).click()
  await page.getByRole('link', { name: 'Return to the shop' }).click()
  await expectEnded(page, new RegExp(`^Cancelled on ${DATE}$`))
})

test('a plan lapsed after its payments failed: Ended on DATE — payment failed', async ({ page, login }) => {
  test.setTimeout(60_000)
  const user = await login()
  // The trial ended 5 days ago on the fake Stripe's clock and the first charge failed: past due.
  const stripe = await buyBasicByCard(page, { email: user.email, fail: true, backdateDays: 12 })
  expect((await page.request.post(`${stripe}/fake/clock/advance?days=0`)).ok()).toBe(true)
  await page.goto('/account/membership')
  await expect(page.getByTestId('membership-status-text')).toHaveText('Past due — update your card')
  // Still unpaid when the period ends: Stripe ends the subscription for non-payment.
  expect((await page.request.post(`${stripe}/fake/clock/advance?days=30`)).ok()).toBe(true)
  // Nothing was ever charged (the trial was free, its first charge failed): no invoice to list.
  await expectEnded(page, new RegExp(`^Ended on ${DATE} — payment failed$`), { charged: false })
  expect((await page.request.post(`${stripe}/fake/clock/reset`)).ok()).toBe(true)
})

test('a plan refunded by staff: Refunded on DATE for the member and beside the order for staff', async ({
  page,
  db,
  baseURL,
  login,
}) => {
  test.setTimeout(60_000)
  const member = await login()
  await giveEndedPlan(db, member.id)
  await buyBasicByCard(page)
  const reference = await paidOrderReference(db, member.id)

  const row = await staffOrderRow(page, db, baseURL!, reference)
  await expect(row.getByText(/^Basic plan — Active — renews on/)).toBeVisible()
  await row.getByRole('button', { name: 'Refund' }).click()
  const dialog = page.getByRole('dialog', { name: 'Refund order' })
  await dialog.getByRole('button', { name: 'Refund whole order' }).click()
  await expect(row.getByText(new RegExp(`^Basic plan — Refunded on ${DATE}$`))).toBeVisible()

  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, member)
  await expectEnded(page, new RegExp(`^Refunded on ${DATE}$`))
})

test('a free trial took nothing: its order shows the plan at $0.00 (Free trial), and staff are offered no Refund', async ({
  page,
  db,
  baseURL,
  login,
}) => {
  test.setTimeout(60_000)
  // A first-time member: the plan starts with its free trial, and Stripe charges nothing at checkout.
  const member = await login()
  await buyBasicByCard(page)
  const reference = await paidOrderReference(db, member.id)

  await page.goto('/account')
  const order = page.getByTestId(`buyer-order-${reference}`)
  await expect(order.getByText('Free trial', { exact: true })).toBeVisible()
  await expect(order.getByTestId('line-amount')).toHaveText('$0.00')
  await expect(order.getByText('Total $0.00')).toBeVisible()

  // Staff: nothing was paid, so nothing to refund (ending a trial is a cancellation).
  const row = await staffOrderRow(page, db, baseURL!, reference)
  await expect(row.getByText(/^Basic plan — Free trial until/)).toBeVisible()
  await expect(row.getByText('$0.00')).toBeVisible()
  await expect(row.getByRole('button', { name: 'Refund' })).toHaveCount(0)
})

test('a plan whose current renewal was refunded in Stripe’s dashboard: Refunded on DATE, for staff too', async ({
  page,
  db,
  baseURL,
  login,
}) => {
  test.setTimeout(90_000)
  const member = await login()
  // A first-time member: a free trial, whose first charge (the renewal) Stripe takes when it ends.
  const stripe = await buyBasicByCard(page)
  expect((await page.request.post(`${stripe}/fake/clock/advance?days=8`)).ok()).toBe(true)
  await page.goto('/account/membership')
  await expect(page.getByTestId('membership-status-text')).toHaveText(/^Active — renews on/)
  const renewal = await db
    .selectFrom('subscription_invoices')
    .select('stripe_payment_intent_id')
    .where('user_id', '=', member.id)
    .where('amount_minor', '>', 0)
    .executeTakeFirstOrThrow()
  const refunded = await page.request.post(
    `${stripe}/fake/dashboard/refund?payment_intent=${renewal.stripe_payment_intent_id}`,
  )
  expect(refunded.ok()).toBe(true)
  await expectEnded(page, new RegExp(`^Refunded on ${DATE}$`))
  // The plan's story in the order history says what came back of the payment.
  await page.goto('/account')
  await expect(page.getByTestId('subscription-history')).toContainText(/Paid \$9\.99 on .+ · Refunded \$9\.99/)
  const { reference } = await db
    .selectFrom('orders')
    .select('reference')
    .where('user_id', '=', member.id)
    .executeTakeFirstOrThrow()

  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/orders')
  await expect(
    page.getByTestId(`order-${reference}`).getByText(new RegExp(`^Basic plan — Refunded on ${DATE}$`)),
  ).toBeVisible()
  expect((await page.request.post(`${stripe}/fake/clock/reset`)).ok()).toBe(true)
})

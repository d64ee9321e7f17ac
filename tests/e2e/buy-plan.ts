// Buying a plan as a shopper does, on the fake Stripe's checkout page: shared by the membership specs.
import type { Page } from '@playwright/test'
import { expect } from './fixtures.ts'

/** Buys Basic (monthly) by card on the fake Stripe; answers the fake's origin. */
export async function buyBasicByCard(page: Page, card?: { email: string; fail?: boolean; backdateDays?: number }) {
  await page.goto('/pricing')
  const plan = page.getByTestId('plan-card').filter({ has: page.getByRole('heading', { name: 'Basic', exact: true }) })
  await plan.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByText('Basic plan added to cart')).toBeVisible()
  await page.goto('/cart')
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
  await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
  await page.getByRole('button', { name: /^Pay / }).click()
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  const stripe = new URL(page.url()).origin
  expect((await page.request.post(`${stripe}/fake/clock/reset`)).ok()).toBe(true)
  if (card) {
    const query = `email=${encodeURIComponent(card.email)}&fail=${card.fail ? 1 : 0}&backdate_days=${card.backdateDays ?? 0}`
    expect((await page.request.post(`${stripe}/fake/card?${query}`)).ok()).toBe(true)
  }
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible()
  return stripe
}

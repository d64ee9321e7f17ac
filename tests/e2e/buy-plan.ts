// The membership specs' steps: buying a plan (or any cart) as a shopper does on the fake Stripe's checkout page, and
// staff (an admin) finding the plan's order on the Orders screen.
import type { Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { createUser } from '../support/factories.ts'
import { expect, signInAs } from './fixtures.ts'

/** Buys Basic (monthly) by card on the fake Stripe; answers the fake's origin. */
export async function buyBasicByCard(page: Page, card?: { email: string; fail?: boolean; backdateDays?: number }) {
  await page.goto('/pricing')
  const plan = page.getByTestId('plan-card').filter({ has: page.getByRole('heading', { name: 'Basic', exact: true }) })
  await plan.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByText('Basic plan added to cart')).toBeVisible()
  return checkoutByCard(page, async (stripe) => {
    expect((await page.request.post(`${stripe}/fake/clock/reset`)).ok()).toBe(true)
    if (card) {
      const query = `email=${encodeURIComponent(card.email)}&fail=${card.fail ? 1 : 0}&backdate_days=${card.backdateDays ?? 0}`
      expect((await page.request.post(`${stripe}/fake/card?${query}`)).ok()).toBe(true)
    }
  })
}

/**
 * Pays the cart by card as a shopper does: checkout, the card method, the fake Stripe's page (where `beforePay` may set
 * its clock or card up) and its Pay button, up to the success page. Answers the fake's origin.
 */
export async function checkoutByCard(page: Page, beforePay?: (stripe: string) => Promise<void>) {
  await page.goto('/cart')
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
  await expect(page).toHaveURL(/\/payment/)
  await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
  // A first plan by card starts its free trial: nothing is paid today.
  await page.getByRole('button', { name: /^(Pay |Start Free Trial$)/ }).click()
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  const stripe = new URL(page.url()).origin
  await beforePay?.(stripe)
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible({ timeout: 15_000 })
  return stripe
}

/** The reference of the member's paid order (their plan's). */
export async function paidOrderReference(db: Kysely<Database>, userId: string): Promise<string> {
  const { reference } = await db
    .selectFrom('orders')
    .select('reference')
    .where('user_id', '=', userId)
    .where('status', '=', 'paid')
    .executeTakeFirstOrThrow()
  return reference
}

/** Signs in as a new admin and opens the Orders screen: the order's row. */
export async function staffOrderRow(page: Page, db: Kysely<Database>, baseURL: string, reference: string) {
  await page.context().clearCookies()
  await signInAs(page, baseURL, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/orders')
  // Found by its reference, as staff do: other specs' orders could push it off the first page.
  await page.getByLabel('Order reference or customer e-mail').fill(reference)
  await page.getByRole('button', { name: 'Find', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Show all' })).toBeVisible()
  return page.getByTestId(`order-${reference}`)
}

// The membership specs' steps: buying a plan as a shopper does on the fake Stripe's checkout page, and staff (an admin)
// finding the plan's order on the Orders screen.
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
  return page.getByTestId(`order-${reference}`)
}

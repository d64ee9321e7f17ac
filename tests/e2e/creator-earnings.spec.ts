// A creator's money in the browser (issue 31): a creator with a sale of their course (paid in the database through
// markPaid, as every rail ends), sets up payouts on the fake Stripe's hosted onboarding and comes back ready, sees
// the sale pending on Earnings with the chart's table and the entry, downloads the month's statement CSV; staff open
// /admin/finance. A card dispute of a sale holds its share back (pending, out of the payout) until it is won, and a
// refused payout it leaves nothing for is withdrawn (staff see why).
import { readFile } from 'node:fs/promises'
import { fitPayoutsToBalance, openPayout, payoutBalances } from '../../src-server/earnings/payouts.ts'
import { releaseDueHolds } from '../../src-server/earnings/shares.ts'
import { PAYOUT_MAX_ATTEMPTS } from '../../src-server/flows/creator-payouts.ts'
import type { DB } from '../../src-server/kernel/db.ts'
import { createCreator } from '../support/creator-courses.ts'
import { ownedCourse, sell } from '../support/earnings.ts'
import { createUser } from '../support/factories.ts'
import { axeViolations } from './a11y.ts'
import { expect, signInAs, test } from './fixtures.ts'
import { deliver, disputeOf, paidCardOrder } from './stripe-webhook.ts'

test('a creator onboards on Stripe, sees a sale on Earnings and downloads the statement; staff see finance', async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000)
  const creator = await createCreator(db, { plan: 'pro' })
  const title = `Earning Course ${Date.now().toString(36)}`
  const course = await ownedCourse(db, creator.id, 4999, title)
  const sale = await sell(db, [course])
  await signInAs(page, baseURL as string, db, creator)

  // Payouts: Stripe's hosted onboarding, then back to the studio.
  await page.goto('/studio/payouts')
  await expect(page.getByText('Payouts are not set up yet')).toBeVisible()
  await page.getByRole('button', { name: 'Set up payouts' }).click()
  await expect(page.getByRole('heading', { name: 'Set up payouts' })).toBeVisible()
  const stripe = new URL(page.url()).origin
  // Back in the studio before finishing: what Stripe still needs, in the creator's words (not its field names).
  const onboarding = page.url()
  await page.goBack()
  await expect(page.getByText('Stripe needs more information')).toBeVisible()
  const stillDue = page.getByRole('listitem')
  await expect(stillDue.filter({ hasText: 'A bank account to be paid into' })).toHaveCount(1)
  await expect(stillDue.filter({ hasText: 'Date of birth' })).toHaveCount(1)
  await expect(stillDue.filter({ hasText: 'Legal name' })).toHaveCount(1) // first and last name: one thing to give
  await expect(page.getByText('external account')).toHaveCount(0)
  await page.goto(onboarding)
  await page.getByRole('button', { name: 'Agree and submit' }).click()
  await expect(page).toHaveURL(/\/studio\/payouts\?return=1$/)
  // Stripe sends account.updated to the webhook.
  expect((await page.request.post(`${stripe}/fake/clock/advance?days=0`)).ok()).toBe(true)
  await page.reload()
  await expect(page.getByText('Ready:')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Open Stripe dashboard' })).toBeVisible()
  await expect(page.getByText('Tax details')).toBeVisible()

  // Earnings: Pro's 5 % of $49.99 is $2.50, so $47.49 is pending.
  await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Earnings' }).click()
  await expect(page).toHaveURL(/\/studio\/earnings$/)
  const usd = page.getByLabel('Balances in USD')
  await expect(usd.getByText('Pending (USD)')).toBeVisible()
  await expect(usd).toContainText('$47.49')
  const month = new Date().toISOString().slice(0, 7)
  const chartTable = page.getByRole('region', { name: 'Earnings per month in USD' })
  await expect(chartTable.getByRole('row', { name: new RegExp(month) })).toContainText('$47.49')
  await expect(page.getByRole('region', { name: 'Ledger entries table' })).toContainText(
    `Sale of ${title} (order ${sale.reference})`,
  )

  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: `Statement ${month} (CSV)` }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe(`earnings-${month}.csv`)
  const csv = await readFile((await download.path()) as string, 'utf8')
  expect(csv).toContain(`"Sale of ${title} (order ${sale.reference})","USD","47.49","0.00","0.00"`)

  // Staff finance.
  const staffContext = await browser.newContext({ baseURL })
  const staff = await staffContext.newPage()
  await signInAs(staff, baseURL as string, db, await createUser(db, { role: 'admin' }))
  await staff.goto('/admin/finance')
  await expect(staff.getByRole('heading', { name: 'Finance', level: 1 })).toBeVisible()
  await expect(staff.getByRole('heading', { name: 'Owed to creators' })).toBeVisible()
  await expect(staff.getByRole('region', { name: 'Owed to creators table' })).toContainText('USD')
  await staffContext.close()
})

test('the earnings chart, hidden from screen readers beside its table, takes no keyboard focus', async ({
  page,
  db,
  baseURL,
}) => {
  const creator = await createCreator(db, { plan: 'pro' })
  await sell(db, [await ownedCourse(db, creator.id, 2500)])
  await signInAs(page, baseURL as string, db, creator)
  await page.goto('/studio/earnings')
  await expect(page.locator('.recharts-wrapper')).toBeVisible()
  // The month axis reads as months ('Jan 2026'), not as a two-digit year and month ('26-01').
  const ticks = page.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value')
  await expect(ticks.first()).toBeVisible()
  for (const tick of await ticks.allTextContents()) expect(tick).toMatch(/^[A-Z][a-z]{2} \d{4}$/)
  // Nothing inside the hidden drawing is reachable by Tab (a keyboard user would land on nothing that is announced).
  await expect(page.locator('[aria-hidden="true"] [tabindex]:not([tabindex="-1"])')).toHaveCount(0)
  expect(await axeViolations(page)).toEqual([])
})

test('a creator without a live plan is told the fee they pay, not that they are on Basic', async ({
  page,
  db,
  baseURL,
}) => {
  const creator = await createCreator(db, { plan: null })
  await signInAs(page, baseURL as string, db, creator)
  await page.goto('/studio/earnings')
  const intro = page.getByRole('main').getByText(/Platform fee/)
  await expect(intro).toContainText(
    'of the month. Platform fee without a creator plan: 10 % (as on Basic). A card payment',
  )
  await expect(intro).not.toContainText('your Basic plan')
})

/** A card sale whose refund window is over: its shares released as the hourly job would. */
async function cardSaleReleased(db: DB, creatorId: string, priceMinor: number, title?: string) {
  const course = await ownedCourse(db, creatorId, priceMinor, title)
  const order = await paidCardOrder(db, (await createUser(db)).id, [course])
  await db
    .updateTable('earning_shares')
    .set({ hold_until: new Date(Date.now() - 1000) })
    .where('order_id', '=', order.orderId)
    .execute()
  await releaseDueHolds(db, new Date())
  return order
}

test('a card dispute holds the sale’s share back until the dispute is won', async ({ page, db, baseURL }) => {
  const creator = await createCreator(db, { plan: 'pro' })
  const title = `Disputed Course ${Date.now().toString(36)}`
  // This sale's refund window is over: its share ($30.00 less Pro's 5 %) is released.
  const order = await cardSaleReleased(db, creator.id, 3000, title)
  await signInAs(page, baseURL as string, db, creator)
  await page.goto('/studio/earnings')
  const usd = page.getByLabel('Balances in USD')
  await expect(usd).toContainText('Pending (USD)$0.00Available (USD)$28.50')

  await deliver(baseURL as string, 'charge.dispute.created', disputeOf(order, 'needs_response'))
  await page.reload()
  await expect(usd).toContainText('Pending (USD)$28.50Available (USD)$0.00')
  const entries = page.getByRole('region', { name: 'Ledger entries table' })
  await expect(entries).toContainText(
    `On hold, payment disputed by the buyer's bank: ${title} (order ${order.reference})`,
  )
  await expect(page.getByRole('main')).toContainText('its shares stay pending until the dispute closes')

  await deliver(baseURL as string, 'charge.dispute.closed', disputeOf(order, 'won'))
  await page.reload()
  await expect(usd).toContainText('Pending (USD)$0.00Available (USD)$28.50')
  await expect(entries).toContainText(`Hold ended, dispute closed: ${title} (order ${order.reference})`)
})

test('a payout Stripe refused is withdrawn when a dispute holds all it claimed; staff see why', async ({
  page,
  db,
  baseURL,
}) => {
  const creator = await createCreator(db, { plan: 'pro' })
  await db
    .insertInto('creator_payout_accounts')
    .values({
      creator_id: creator.id,
      stripe_account_id: `acct_withdrawn_${creator.id.slice(0, 8)}`,
      payouts_enabled: true,
      details_submitted: true,
    })
    .execute()
  const order = await cardSaleReleased(db, creator.id, 3000)
  // The month's payout of the $28.50 was opened and Stripe refused its transfer (nothing made; to be retried).
  const [balance] = await payoutBalances(db, PAYOUT_MAX_ATTEMPTS, { creatorId: creator.id, currency: 'USD' })
  expect(balance?.availableMinor).toBe(2850)
  await openPayout(db, balance!, '2031-01')
  await db
    .updateTable('creator_payouts')
    .set({ status: 'failed', attempts: 1, last_error: 'You have insufficient available funds in your Stripe account.' })
    .where('creator_id', '=', creator.id)
    .execute()

  await deliver(baseURL as string, 'charge.dispute.created', disputeOf(order, 'needs_response'))
  // The retry's first step (runPayouts fits before it sends): nothing is left, so nothing is sent.
  expect(await fitPayoutsToBalance(db, balance!, PAYOUT_MAX_ATTEMPTS)).toEqual({ lowered: 0, withdrawn: 1 })

  await signInAs(page, baseURL as string, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/finance')
  const row = page.getByRole('region', { name: 'Payouts table' }).getByRole('row', { name: new RegExp(creator.email) })
  await expect(row).toContainText('$28.50')
  await expect(row).toContainText('withdrawn')
  await expect(row).toContainText('Nothing left to pay: a dispute or a refund took the balance back')
})

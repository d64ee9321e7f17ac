// Issue 31's whole month in the browser, with the server's clock moved (TEST_CLOCK): a Pro creator onboards on the
// fake Stripe, two buyers buy the course — one with a 20 % coupon, through the cart and a bank transfer — and the other
// is refunded inside the 30-day window; the clock moves 31 days, so the kept sale's hold ends and the month's payout
// job runs. The Earnings page, the statement, the fake Stripe's transfers and staff finance then all show the same
// cents: the creator's share of what the buyer paid after the coupon.
import { readFile } from 'node:fs/promises'
import { sql } from 'kysely'
import { awaitTransfer, createFromCart } from '../../src-server/flows/cart-order.ts'
import { markPaid } from '../../src-server/flows/pay-order.ts'
import { refundOrder } from '../../src-server/flows/refunds.ts'
import { defaultPayments } from '../../src-server/payments/config.ts'
import { createCreator } from '../support/creator-courses.ts'
import { ownedCourse, sell } from '../support/earnings.ts'
import { callerAs, createUser } from '../support/factories.ts'
import { shopCaller } from '../support/shop.ts'
import { advanceServerClock, expect, followServerClock, signInAs, test } from './fixtures.ts'

// The clock specs share one server whose clock the earlier ones moved on: this process follows it.
test.beforeEach(({ page, baseURL }) => followServerClock(page, baseURL as string))

/** The fake Stripe's secret key, from the run's list of secrets (scripts/e2e-server.ts writes it there). */
async function fakeStripeKey(): Promise<string> {
  const secrets = await readFile(process.env.E2E_SECRETS_FILE as string, 'utf8')
  const key = secrets.split('\n').find((line) => line.startsWith('sk_'))
  if (!key) throw new Error('No Stripe key in the run’s secrets file')
  return key
}

test('after the hold and the month’s job the creator is paid exactly the kept sale, everywhere', async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const base = baseURL as string
  const creator = await createCreator(db, { plan: 'pro' })
  const title = `Payout Course ${Date.now().toString(36)}`
  // $79.99 less a 20 % coupon is $63.99; Pro's 5 % of it is $3.1995, allocated as $3.20, so the creator's share is
  // $60.79 (the two add up to the net: largest remainder), above the $50.00 payout threshold.
  const course = await ownedCourse(db, creator.id, 7999, title)
  const admin = await createUser(db, { role: 'admin' })
  const code = `MONTH${Date.now().toString(36).toUpperCase()}`
  // An editor makes the code (in-process here, where an admin would be asked for a second factor first).
  const editor = await createUser(db, { role: 'editor' })
  await (await callerAs(db, editor)).admin.coupons.create({
    code,
    kind: 'percent',
    percentOff: 20,
    appliesTo: 'everything',
  } as never)
  const buyer = await createUser(db)
  const shop = await shopCaller(db, buyer, { ...defaultPayments, paypalMeUrl: 'https://paypal.me/skillforge' })
  await shop.cart.add({ kind: 'course', courseId: course.id })
  await shop.cart.applyCoupon({ code })
  const order = await createFromCart(db, {
    userId: buyer.id,
    currency: 'USD',
    method: 'bank_transfer',
    referencePrefix: 'SF',
  })
  expect(order.totalMinor).toBe(6399)
  await awaitTransfer(db, buyer.id, order.id)
  expect(await markPaid(db, order.id, { source: 'staff', actorId: admin.id })).toBe('fulfilled')
  const kept = await db.selectFrom('orders').select('reference').where('id', '=', order.id).executeTakeFirstOrThrow()
  const refunded = await sell(db, [course])
  await refundOrder(
    db,
    {
      orderId: refunded.orderId,
      lineIds: refunded.lineIds,
      reference: 'BANK-REFUND-1',
      actor: { id: admin.id, email: admin.email },
    },
    null,
  )
  await signInAs(page, base, db, creator)

  await page.goto('/studio/payouts')
  await page.getByRole('button', { name: 'Set up payouts' }).click()
  await expect(page.getByRole('heading', { name: 'Set up payouts' })).toBeVisible()
  const stripe = new URL(page.url()).origin
  await page.getByRole('button', { name: 'Agree and submit' }).click()
  await expect(page).toHaveURL(/\/studio\/payouts\?return=1$/)
  expect((await page.request.post(`${stripe}/fake/clock/advance?days=0`)).ok()).toBe(true)
  await page.reload()
  await expect(page.getByText('Ready:')).toBeVisible()
  const account = await db
    .selectFrom('creator_payout_accounts')
    .select('stripe_account_id')
    .where('creator_id', '=', creator.id)
    .executeTakeFirstOrThrow()

  await page.goto('/studio/earnings')
  const usd = page.getByLabel('Balances in USD')
  // The coupon sale's $60.79 pending; the other sale's $75.99 taken back by its refund.
  await expect(usd.getByText('Pending (USD)')).toBeVisible()
  await expect(usd.getByText('Pending (USD)').locator('..')).toContainText('$60.79')
  await expect(page.getByRole('region', { name: 'Ledger entries table' })).toContainText(
    `Refund of ${title} (order ${refunded.reference})`,
  )

  // 31 days on: the hold ends and the 1st of the month's payout job falls due on the way.
  const { now, ran } = await advanceServerClock(page, base, 31 * 86_400)
  expect(ran).toEqual(expect.arrayContaining(['earnings.release-holds', 'earnings.payouts']))
  // The old session has expired on the moved clock: sign in again.
  await page.context().clearCookies()
  await signInAs(page, base, db, creator, now)

  await page.goto('/studio/earnings')
  await expect(usd).toContainText('Paid out (USD)')
  await expect(usd.getByText('Paid out (USD)').locator('..')).toContainText('$60.79')
  await expect(usd.getByText('Pending (USD)').locator('..')).toContainText('$0.00')
  await expect(usd.getByText('Available (USD)').locator('..')).toContainText('$0.00')

  // The fake Stripe holds exactly one transfer of 6079 cents to the creator's account.
  const transfers = await page.request.get(`${stripe}/v1/transfers?destination=${account.stripe_account_id}`, {
    headers: { authorization: `Bearer ${await fakeStripeKey()}` },
  })
  const listed = (await transfers.json()) as { data: { amount: number; currency: string }[] }
  expect(listed.data.map((transfer) => [transfer.amount, transfer.currency])).toEqual([[6079, 'usd']])

  // The sale month's statement: the coupon sale at its discounted share, the refunded one and its reversal.
  // The ledger dates its transactions by the database's clock (created_at defaults to now()), which the server's moved
  // clock does not move: the sale's statement is the database's current month.
  const { rows: months } = await sql<{
    month: string
  }>`select to_char(now() at time zone 'UTC', 'YYYY-MM') as month`.execute(db)
  const saleMonth = months[0]?.month as string
  const statement = await page.request.get(`/api/studio/statements/${saleMonth}.csv`)
  expect(statement.ok()).toBe(true)
  const csv = await statement.text()
  expect(csv).toContain(`"Sale of ${title} (order ${kept.reference})","USD","60.79","0.00","0.00"`)
  expect(csv).toContain(`"Refund of ${title} (order ${refunded.reference})","USD","-75.99","0.00","0.00"`)

  // Staff finance agrees: the payout is listed as paid, and nothing is owed to this creator any more.
  const staffContext = await browser.newContext({ baseURL })
  const staff = await staffContext.newPage()
  await signInAs(staff, base, db, admin, now)
  await staff.goto('/admin/finance')
  const payouts = staff.getByRole('region', { name: 'Payouts table' })
  await expect(payouts.getByRole('row', { name: new RegExp(creator.email) })).toContainText('$60.79')
  await expect(payouts.getByRole('row', { name: new RegExp(creator.email) })).toContainText(/paid/i)
  await staffContext.close()
})

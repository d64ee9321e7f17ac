// Issue 32: a plan bought as a gift (decision 0050). The buyer picks Pro for 3 months on /pricing → Buy as a gift, pays
// by card, and is not subscribed themselves; the recipient (an existing account, in their own browser) follows the
// e-mailed link, claims it and holds Premium from that day for 3 months, shown on their membership and Premium pages
// without a renewal; a second use of the link is refused, and the buyer's account lists the gift as claimed.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { formatDate } from '../../src-shared/dates.ts'
import { createUser } from '../support/factories.ts'
import { expect, signInAs, test } from './fixtures.ts'

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const DAY_MS = 24 * 3600 * 1000

/** The path (with its token) of the newest gift-claim link mailed to an address. */
async function mailedClaimLink(db: Kysely<Database>, to: string): Promise<string> {
  const query = db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', to)
  await expect.poll(async () => (await query.where('kind', '=', 'gift').execute()).length).toBeGreaterThan(0)
  const mail = await query.where('kind', '=', 'gift').orderBy('created_at', 'desc').executeTakeFirstOrThrow()
  // The plan named once with its term ("sent you a membership: Pro membership: 3 months" before).
  expect(mail.subject).toMatch(/ sent you a Pro membership for 3 months$/)
  expect(mail.text_body).toContain(
    'Your membership starts the day you claim it (if you already have Premium, the day that ends).',
  )
  const match = mail.text_body.match(/https?:\/\/[^/]+(\/gifts\/claim\?token=[a-z0-9]+)/)
  expect(match, 'a /gifts/claim link in the mail').not.toBeNull()
  return match![1]!
}

test('a plan is bought as a gift, claimed by the recipient, who then holds Premium for its term', async ({
  page,
  login,
  db,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  await login()
  const recipientEmail = `plan-gift-${unique()}@example.test`
  const recipient = await createUser(db, { email: recipientEmail, firstName: 'Remy', lastName: 'Recipient' })
  const pro = await db
    .selectFrom('plans')
    .select(['id', 'name', 'monthly_price_minor'])
    .where('id', '=', 'pro')
    .executeTakeFirstOrThrow()

  // Pricing → Buy as a gift on the Pro card → 3 months, the recipient, a card payment.
  await page.goto('/pricing')
  await page.getByRole('link', { name: `Buy as a gift: ${pro.name}` }).click()
  await expect(page.getByRole('heading', { name: 'Buy as a gift' })).toBeVisible()
  await expect(page).toHaveURL(/\/gifts\/new\?plan=pro/)
  await page.getByLabel('Length of the membership').selectOption('3')
  await page.getByLabel("Recipient's email").fill(recipientEmail)
  await page.getByLabel('Message (optional)').fill('Three months of everything!')
  await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
  await page.getByRole('button', { name: 'Pay for Gift' }).click()
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible()

  // The order line: the plan's 3-month term at 3 × the monthly price.
  const line = await db
    .selectFrom('gifts as g')
    .innerJoin('order_items as oi', 'oi.id', 'g.order_item_id')
    .select(['oi.title', 'oi.plan_id', 'oi.unit_price_minor', 'g.plan_months'])
    .where('g.recipient_email', '=', recipientEmail)
    .executeTakeFirstOrThrow()
  expect(line).toMatchObject({ plan_id: 'pro', plan_months: 3, unit_price_minor: 3 * pro.monthly_price_minor })

  // The buyer is not subscribed; their account lists the gift as sent.
  await page.goto('/account/premium')
  await expect(page.getByTestId('membership-status')).toContainText('Free account')
  await page.goto('/account')
  const row = page.getByTestId('gift-row').filter({ hasText: recipientEmail })
  await expect(row).toContainText(line.title)
  await expect(row).toContainText('Sent, not claimed yet')

  // The recipient, signed in in their own browser, follows the e-mailed link and claims it.
  const claimLink = await mailedClaimLink(db, recipientEmail)
  const context = await browser.newContext({ baseURL })
  const friend = await context.newPage()
  await signInAs(friend, baseURL as string, db, recipient)
  await friend.goto('/account/premium')
  await expect(friend.getByTestId('membership-status')).toContainText('Free account')
  await friend.goto(claimLink)
  await expect(friend.getByRole('heading', { name: 'Claim your gift' })).toBeVisible()
  await expect(friend).toHaveURL(/\/gifts\/claim$/)
  await expect(friend.getByTestId('gift-summary')).toContainText(`sent you a ${pro.name} membership for 3 months.`)
  await friend.getByRole('button', { name: 'Claim gift' }).click()
  await expect(friend.getByText(`Your ${pro.name} membership is active until`)).toBeVisible()
  await expect(friend.getByRole('status').filter({ hasText: 'membership is active' })).toBeFocused()

  // Premium from the claim, for 3 months, from the gift's order line; it never renews.
  const grant = await db
    .selectFrom('access_grants')
    .select(['starts_at', 'ends_at', 'subscription_id'])
    .where('user_id', '=', recipient.id)
    .where('kind', '=', 'premium')
    .executeTakeFirstOrThrow()
  expect(grant.subscription_id).toBeNull()
  const termDays = (grant.ends_at!.getTime() - grant.starts_at.getTime()) / DAY_MS
  expect(termDays).toBeGreaterThanOrEqual(89)
  expect(termDays).toBeLessThanOrEqual(92)

  await friend.getByRole('link', { name: 'See your membership' }).click()
  await expect(friend).toHaveURL(/\/account\/membership$/)
  await expect(friend.getByRole('heading', { name: `${pro.name} plan, a gift` })).toBeVisible()
  await expect(friend.getByTestId('membership-status-text')).toHaveText(
    `Active until ${formatDate(grant.ends_at!)}; it does not renew`,
  )
  await friend.goto('/account/premium')
  const status = friend.getByTestId('membership-status')
  await expect(status).toContainText('Premium Plan')
  await expect(status).toContainText(`${pro.name} plan, a gift: it does not renew`)
  // The account page names the gifted plan and its end (no subscription behind it), and links to the membership.
  await friend.goto('/account')
  const membership = friend.getByRole('region', { name: 'Membership', exact: true })
  await expect(membership).toContainText(`Premium Plan (${pro.name}, a gift until ${formatDate(grant.ends_at!)})`)
  await expect(membership).not.toContainText('undefined')
  await membership.getByRole('link', { name: 'View membership' }).click()
  await expect(friend).toHaveURL(/\/account\/membership$/)

  // The same link again: a clear refusal.
  await friend.goto(claimLink)
  await expect(friend.getByRole('alert').filter({ hasText: 'This gift has already been claimed.' })).toBeVisible()
  await expect(friend.getByRole('button', { name: 'Claim gift' })).toHaveCount(0)
  await context.close()

  await page.reload()
  await expect(page.getByTestId('gift-row').filter({ hasText: recipientEmail })).toContainText('Claimed')
})

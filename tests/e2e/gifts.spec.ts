// Issue 32: a gift is bought by card, claimed by a new account, and opens. The buyer is not enrolled; the recipient
// signs up from the claim page, verifies the e-mail, logs in and comes back to claim; a second use of the link is
// refused.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { expect, test } from './fixtures.ts'

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

/** The path (with its token) of the newest link to `path` mailed to an address. */
async function mailedLink(db: Kysely<Database>, to: string, path: string, kind?: string): Promise<string> {
  let query = db.selectFrom('mail_outbox').select('text_body').where('to_address', '=', to)
  if (kind) query = query.where('kind', '=', kind)
  await expect.poll(async () => (await query.execute()).length).toBeGreaterThan(0)
  const mail = await query.orderBy('created_at', 'desc').executeTakeFirstOrThrow()
  const match = mail.text_body.match(new RegExp(`https?://[^/]+(${path}\\?token=[a-z0-9]+)`))
  expect(match, `a ${path} link in the mail`).not.toBeNull()
  return match![1]!
}

test('a gift is bought, claimed by a new account, and opens', async ({ page, login, db, browser, baseURL }) => {
  test.setTimeout(90_000)
  await login()
  const course = await db
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('status', '=', 'published')
    .where('price_minor', '>', 0)
    .where('currency', '=', 'USD')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow()
  const recipient = `gift-${unique()}@example.test`

  await page.goto(`/courses/${course.id}`)
  await page.getByRole('complementary', { name: 'Purchase' }).getByRole('link', { name: 'Buy as a gift' }).click()
  await expect(page.getByRole('heading', { name: 'Buy as a gift' })).toBeVisible()
  await page.getByLabel("Recipient's email").fill(recipient)
  await page.getByLabel('Message (optional)').fill('Enjoy this one!')
  await page.getByRole('button', { name: 'Pay for Gift' }).click()
  await expect(page.getByText('Please select a payment method')).toBeVisible()
  await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
  await page.getByRole('button', { name: 'Pay for Gift' }).click()
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible()
  // The page says where the gift goes, not that the buyer's purchases are ready; its link opens the buyer's gifts.
  await expect(page.getByTestId('gift-paid')).toContainText(`We e-mail ${recipient} a link to claim your gift now.`)
  await expect(page.getByText('your purchases are ready')).toHaveCount(0)
  await page.getByRole('link', { name: 'See Your Gifts' }).click()
  await expect(page).toHaveURL(/\/account#my-gifts$/)

  // The buyer is not enrolled: the course still offers the cart; their account lists the gift as sent.
  await page.goto(`/courses/${course.id}`)
  await expect(
    page.getByRole('complementary', { name: 'Purchase' }).getByRole('link', { name: 'Go to course' }),
  ).toHaveCount(0)
  await page.goto('/account')
  const row = page.getByTestId('gift-row').filter({ hasText: recipient })
  await expect(row).toContainText(course.title)
  await expect(row).toContainText('Sent, not claimed yet')

  // The recipient, in their own browser, follows the e-mailed link and signs up.
  const claimLink = await mailedLink(db, recipient, '/gifts/claim', 'gift')
  const context = await browser.newContext({ baseURL })
  const friend = await context.newPage()
  await friend.goto(claimLink)
  await expect(friend.getByRole('heading', { name: 'Claim your gift' })).toBeVisible()
  // The token left the address bar at once.
  await expect(friend).toHaveURL(/\/gifts\/claim$/)
  // Before signing up, the page says what the gift is and carries the sender's message.
  const summary = friend.getByTestId('gift-summary')
  await expect(summary).toContainText(`sent you the course “${course.title}”.`)
  await expect(summary).toContainText('Enjoy this one!')
  await friend.getByRole('link', { name: 'Sign up to claim' }).click()
  await friend.getByLabel('First name').fill('Gia')
  await friend.getByLabel('Last name').fill('Giftee')
  await friend.getByLabel('Email', { exact: true }).fill(recipient)
  await friend.getByLabel('Password', { exact: true }).fill('gifted-password-1')
  await friend.getByLabel('I agree to the').check()
  await friend.getByRole('button', { name: 'Create Account' }).click()
  await expect(friend).toHaveURL(/\/login/, { timeout: 10_000 })
  await friend.goto(await mailedLink(db, recipient, '/verify-email'))
  await expect(friend.getByText('Your email has been verified. You can now log in.')).toBeVisible()
  // The verification page knows where the new account was going: its log-in leads back to the claim.
  await friend.getByRole('link', { name: 'Continue to sign-in' }).click()
  await expect(friend).toHaveURL(/\/login\?redirect=%2Fgifts%2Fclaim$/)
  await friend.getByLabel('Email', { exact: true }).fill(recipient)
  await friend.getByLabel('Password', { exact: true }).fill('gifted-password-1')
  await friend.getByRole('button', { name: 'Log In' }).click()

  // Back on the claim page, signed in: claim, and the course opens.
  await expect(friend).toHaveURL(/\/gifts\/claim$/)
  await friend.getByRole('button', { name: 'Claim gift' }).click()
  await expect(friend.getByText(`“${course.title}” is now yours`)).toBeVisible()
  // The message replaced the pressed button and took its focus, so it is read out first.
  await expect(friend.getByRole('status').filter({ hasText: 'is now yours' })).toBeFocused()
  await friend.getByRole('link', { name: 'Start learning' }).click()
  await expect(friend).toHaveURL(new RegExp(`/learn/${course.id}`))
  await expect(friend.getByRole('navigation', { name: 'Course curriculum' })).toBeVisible()

  // The same link again: a clear refusal, and no button to press.
  await friend.goto(claimLink)
  await expect(friend.getByRole('alert').filter({ hasText: 'This gift has already been claimed.' })).toBeVisible()
  await expect(friend.getByRole('button', { name: 'Claim gift' })).toHaveCount(0)
  // Another tab has no link (the token is kept in the tab the mail opened): it says what to do, not "invalid".
  const otherTab = await context.newPage()
  await otherTab.goto('/gifts/claim')
  await expect(otherTab.getByRole('alert')).toHaveText(
    'Open the link in your gift e-mail to claim the gift: this page cannot see it from here.',
  )
  await context.close()

  await page.reload()
  await expect(page.getByTestId('gift-row').filter({ hasText: recipient })).toContainText('Claimed')
})

test('checkout offers the cart reminder unticked; the reminder link fills the cart again', async ({
  page,
  login,
  db,
}) => {
  const user = await login()
  const course = await db
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('status', '=', 'published')
    .where('price_minor', '>', 0)
    .where('currency', '=', 'USD')
    .orderBy('id', 'desc')
    .offset(1)
    .executeTakeFirstOrThrow()
  await page.goto(`/courses/${course.id}`)
  await page.getByRole('complementary', { name: 'Purchase' }).getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByTestId('cart-count')).toHaveText('1')
  await page.goto('/payment')
  const remind = page.getByRole('checkbox', { name: 'E-mail me a reminder about this cart' })
  await expect(remind).not.toBeChecked()
  await remind.check()
  await page.getByRole('radio', { name: /Bank Transfer/ }).check()
  await page.getByRole('button', { name: /^Pay / }).click()
  await expect(page.getByRole('dialog')).toBeVisible()
  const order = await db
    .selectFrom('orders')
    .innerJoin('cart_reminders', 'cart_reminders.order_id', 'orders.id')
    .select('orders.id')
    .where('orders.user_id', '=', user.id)
    .executeTakeFirstOrThrow()
  await page.keyboard.press('Escape')

  // The reminder's link: the pending order gives way and its course is back in the cart.
  await page.goto(`/cart/restore?order=${order.id}`)
  await expect(page).toHaveURL(/\/cart$/)
  await expect(page.getByText('Your cart is filled again.')).toBeVisible()
  await expect(page.getByRole('heading', { name: course.title })).toBeVisible()
})

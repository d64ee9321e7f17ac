// Issue 32: a gift is bought by card, claimed by a new account, and opens. The buyer is not enrolled; the recipient
// signs up from the claim page, verifies the e-mail in another browser (decision 0146: the claim page's token stays
// behind, the gift waits for the verified address), logs in and claims it there; a second use of the link is refused.
// A second gift of the same course tells the recipient they already have it, and the giver is told; the buyer's order
// history says whom the gift was for, and staff see it on the buyer's refund request.
import { AUTH_MESSAGES } from '../../src-shared/auth.ts'
import { formatDate } from '../../src-shared/dates.ts'
import { createUser } from '../support/factories.ts'
import { axeViolations } from './a11y.ts'
import { expect, signInAs, test } from './fixtures.ts'
import { paidGift } from './gift-order.ts'
import { mailedLink } from './mailed-link.ts'

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

test('a gift is bought, claimed by a new account, and opens', async ({ page, login, db, browser, baseURL }) => {
  test.setTimeout(150_000)
  await login({ firstName: 'Gil', lastName: 'Giver' })
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
  // The order history says the order is a gift, and for whom: the buyer does not have the course.
  const { reference } = await db
    .selectFrom('gifts')
    .innerJoin('orders', 'orders.id', 'gifts.order_id')
    .select('orders.reference')
    .where('gifts.recipient_email', '=', recipient)
    .executeTakeFirstOrThrow()
  const order = page.getByTestId(`buyer-order-${reference}`)
  await expect(order.getByTestId('line-gift')).toHaveText(`· Gift for ${recipient}`)

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
  // The verification link opens in another browser (the mail app's): neither the claim page's token nor the path
  // kept at sign-up is there. The server knows a gift waits for the address now proven, and the log-in leads to it.
  // Not the browser that signed up, so the page first asks for the password chosen then (decision 0134).
  const mailbox = await browser.newContext({ baseURL })
  const mailTab = await mailbox.newPage()
  await mailTab.goto(await mailedLink(db, recipient, '/verify-email'))
  await expect(mailTab.getByText(AUTH_MESSAGES.signupPasswordNeeded)).toBeVisible()
  expect(await axeViolations(mailTab), 'axe on the password form').toEqual([])
  await mailTab.getByLabel('Password', { exact: true }).fill('gifted-password-1')
  await mailTab.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(mailTab.getByText('Your email has been verified. You can now log in.')).toBeVisible()
  await expect(mailTab.getByTestId('gift-waiting')).toHaveText(
    'A gift sent to this address is waiting for you: log in to claim it.',
  )
  await mailTab.getByRole('link', { name: 'Continue to sign-in' }).click()
  await expect(mailTab).toHaveURL(/\/login\?redirect=%2Fgifts%2Fclaim$/)
  await mailTab.getByLabel('Email', { exact: true }).fill(recipient)
  await mailTab.getByLabel('Password', { exact: true }).fill('gifted-password-1')
  await mailTab.getByRole('button', { name: 'Log In' }).click()

  // On the claim page, signed in and without the link: the gift waiting for the address, claimed, and it opens.
  await expect(mailTab).toHaveURL(/\/gifts\/claim$/)
  const waiting = mailTab.getByTestId('waiting-gift')
  await expect(waiting.getByTestId('gift-summary')).toContainText(`Gil Giver sent you the course “${course.title}”.`)
  await waiting.getByRole('button', { name: 'Claim gift' }).click()
  await expect(mailTab.getByText(`“${course.title}” is now yours`)).toBeVisible()
  // The message replaced the pressed button and took its focus, so it is read out first.
  await expect(mailTab.getByRole('status').filter({ hasText: 'is now yours' })).toBeFocused()
  await mailTab.getByRole('link', { name: 'Start learning' }).click()
  await expect(mailTab).toHaveURL(new RegExp(`/learn/${course.id}`))
  await expect(mailTab.getByRole('navigation', { name: 'Course curriculum' })).toBeVisible()

  // Someone else gives them the same course: its link says they already have it before anything is claimed, and the
  // button only lets the giver know; the gift stays unclaimed and its giver is mailed.
  const again = await paidGift(db, baseURL!, course, recipient)
  await mailTab.goto(await mailedLink(db, recipient, '/gifts/claim', 'gift'))
  await expect(mailTab.getByTestId('gift-owned')).toContainText(`You already have “${course.title}” in your account`)
  await expect(mailTab.getByRole('button', { name: 'Claim gift' })).toHaveCount(0)
  await mailTab.getByRole('button', { name: 'Let Gus Again know' }).click()
  await expect(
    mailTab.getByRole('status').filter({ hasText: `We have told Gus Again that you already have “${course.title}”` }),
  ).toBeFocused()
  await expect
    .poll(
      async () =>
        (
          await db
            .selectFrom('mail_outbox')
            .select('id')
            .where('to_address', '=', again.email)
            .where('kind', '=', 'gift_recipient_owns')
            .execute()
        ).length,
    )
    .toBe(1)
  await mailbox.close()

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
  const claimedOn = formatDate(new Date())
  await expect(order.getByTestId('line-gift')).toHaveText(`· Gift for ${recipient}, claimed on ${claimedOn}`)

  // The buyer asks for their money back: staff see that the course is held by someone else, who would lose it.
  await order.getByRole('button', { name: 'Request a refund' }).click()
  await order.getByLabel(`Why would you like a refund of ${course.title}?`).fill('They did not want it')
  await order.getByRole('button', { name: 'Send refund request' }).click()
  await expect(order.getByText('Refund requested')).toBeVisible()
  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/orders')
  await expect(page.getByTestId(`refund-request-${reference}`).getByTestId('refund-request-gift')).toHaveText(
    `Gift — claimed by ${recipient} on ${claimedOn}: approving takes the course from them`,
  )
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

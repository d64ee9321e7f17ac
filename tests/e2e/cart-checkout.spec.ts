// A shopper fills the cart, pays by card through the local fake Stripe, and by bank transfer.
import { addCartItem } from '../../src-server/cart/repository.ts'
import { CART_MESSAGES, PAYMENT_MESSAGES } from '../../src-shared/cart.ts'
import { formatMoney } from '../../src-shared/money.ts'
import { expect, test } from './fixtures.ts'

test.describe('cart and checkout', () => {
  test('a visitor is asked to log in on the cart and sent to log in from checkout', async ({ page }) => {
    await page.goto('/cart')
    await expect(page.getByRole('heading', { name: 'Please Log In' })).toBeVisible()
    await page.getByRole('main').getByRole('link', { name: 'Log In' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await page.goto('/payment')
    await expect(page).toHaveURL(/\/login\?redirect=%2Fpayment$/)

    await page.goto('/pricing')
    await page.getByTestId('plan-card').first().getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByText('Please log in to add items to cart')).toBeVisible()
    // The toast's Log in link comes back to the page the visitor was on.
    await page.getByRole('link', { name: 'Log in', exact: true }).click()
    await expect(page).toHaveURL(/\/login\?redirect=%2Fpricing$/)
  })

  test('pays a course, a service package and a plan by card and gets them', async ({ page, login, db }) => {
    // A long journey (three carts, a payment, the player, two account pages): slow on a loaded machine.
    test.setTimeout(60_000)
    const user = await login()
    const course = await db
      .selectFrom('courses')
      .select(['id', 'title'])
      .where('status', '=', 'published')
      .orderBy('id')
      .executeTakeFirstOrThrow()
    const pkg = await db
      .selectFrom('service_packages')
      .select(['id', 'name'])
      .where('service_id', '=', 'company-consultancy')
      .orderBy('price_minor')
      .executeTakeFirstOrThrow()

    await page.goto('/cart')
    await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible()

    // The course page: Add to Cart → Added to Cart (disabled); the header count follows.
    await page.goto(`/courses/${course.id}`)
    const purchase = page.getByRole('complementary', { name: 'Purchase' })
    await purchase.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(purchase.getByRole('button', { name: 'Added to Cart' })).toBeDisabled()
    await expect(page.getByText(`${course.title} added to cart`)).toBeVisible()
    await expect(page.getByTestId('cart-count')).toHaveText('1')
    // Checked on load: still added after a reload.
    await page.reload()
    await expect(purchase.getByRole('button', { name: 'Added to Cart' })).toBeDisabled()

    // A service package shows In Cart.
    await page.goto('/service/company-consultancy')
    const firstPackage = page
      .getByTestId('package-card')
      .filter({ has: page.getByRole('heading', { name: pkg.name, exact: true }) })
    await firstPackage.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(firstPackage.getByRole('button', { name: 'In Cart' })).toBeDisabled()
    // ...and the service card, whose cheapest package that is, shows In Cart too.
    await page.goto('/services')
    const serviceCard = page
      .getByTestId('service-card')
      .filter({ has: page.getByRole('heading', { name: 'Business Consultancy' }) })
    await expect(serviceCard.getByRole('button', { name: 'In Cart' })).toBeDisabled()

    // A plan shows Added to cart.
    await page.goto('/pricing')
    const pro = page.getByTestId('plan-card').filter({ has: page.getByRole('heading', { name: 'Pro', exact: true }) })
    await pro.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(pro.getByRole('button', { name: 'Added to cart' })).toBeDisabled()
    await expect(page.getByText('Pro plan added to cart')).toBeVisible()
    await expect(page.getByTestId('cart-count')).toHaveText('3')

    await page.goto('/cart')
    await expect(page.getByTestId('cart-item')).toHaveCount(3)
    await expect(page.getByTestId('cart-count')).toHaveText('3')
    await expect(page.getByTestId('summary-USD')).toContainText('Tax')
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
    await expect(page).toHaveURL(/\/payment/)

    await page.getByRole('button', { name: /^Pay / }).click()
    await expect(page.getByText('Please select a payment method')).toBeVisible()
    await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
    await page.getByRole('button', { name: /^Pay / }).click()

    // The fake Stripe's hosted page; paying sends the signed webhook and returns to the success page.
    await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
    await expect(page.getByText(user.email)).toBeVisible()
    await page.getByRole('button', { name: 'Pay' }).click()
    await expect(page).toHaveURL(/\/payment-success\?session_id=cs_test_/)
    await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Go to My Account' })).toBeVisible()

    await expect(page.getByTestId('premium-badge')).toBeVisible()
    await expect(page.getByTestId('cart-count')).toHaveCount(0)
    await page.getByRole('link', { name: 'View Cart' }).click()
    await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible()

    await page.goto(`/courses/${course.id}`)
    await expect(
      page.getByRole('complementary', { name: 'Purchase' }).getByRole('link', { name: 'Go to course' }),
    ).toBeVisible()

    await page.getByRole('link', { name: 'Go to course' }).click()
    await expect(page).toHaveURL(new RegExp(`/learn/${course.id}/[0-9a-f-]{36}$`))
    await page.goto('/account#my-courses')
    await expect(page.getByTestId('my-courses')).toContainText(course.title)
    await expect(page.getByTestId('order-history')).toContainText('Paid')
    await expect(page.getByTestId('order-history')).toContainText('Pro Plan')

    await page.getByRole('link', { name: 'View Premium Account' }).click()
    await expect(page).toHaveURL(/\/account\/premium$/)
    await expect(page.getByTestId('membership-status')).toContainText('Premium Plan')
    await expect(page.getByTestId('membership-status')).toContainText('Pro plan, billed monthly (free trial)')

    const enrolment = await db
      .selectFrom('access_grants')
      .where('kind', '=', 'course')
      .select('course_id')
      .where('user_id', '=', user.id)
      .executeTakeFirst()
    expect(enrolment?.course_id).toBe(course.id)
  })

  test('bank transfer: details, reference, then awaiting transfer with an empty cart', async ({ page, login, db }) => {
    const user = await login()
    await page.goto('/service/uk-company-formation')
    const standard = page
      .getByTestId('package-card')
      .filter({ has: page.getByRole('heading', { name: 'Standard', exact: true }) })
    await standard.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(standard.getByRole('button', { name: 'In Cart' })).toBeDisabled()
    await page.goto('/cart')
    await expect(page.getByTestId('total-GBP')).toHaveText('£300.00')
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
    await page.getByRole('radio', { name: /Bank Transfer/ }).check()
    await page.getByRole('button', { name: 'Pay £300.00' }).click()

    const dialog = page.getByRole('dialog', { name: 'Bank Transfer Details' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('SWIFT Code')
    // A GBP order is paid into a UK account: a sort code, never a US routing number.
    await expect(dialog).toContainText('Sort Code')
    await expect(dialog).toContainText('20-00-00')
    await expect(dialog).not.toContainText('Routing Number')
    await expect(dialog.getByText(/^SF-[0-9A-Z]+-[0-9A-F]{4}$/)).toBeVisible()
    await dialog.getByRole('button', { name: "I've Made the Transfer" }).click()
    await expect(
      page.getByText(
        "Bank details saved. Please complete the transfer and we'll confirm your payment within 24 hours.",
      ),
    ).toBeVisible()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByTestId('cart-count')).toHaveCount(0)

    const order = await db
      .selectFrom('orders')
      .select(['status', 'method', 'total_minor', 'currency'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(order).toEqual({
      status: 'awaiting_transfer',
      method: 'bank_transfer',
      total_minor: 30_000,
      currency: 'GBP',
    })
    await expect(page.getByTestId('premium-badge')).toHaveCount(0)
  })

  test('checkout says a plan or a monthly service is billed per month or year, as the cart does', async ({
    page,
    login,
    db,
  }) => {
    const user = await login()
    const seo = await db
      .selectFrom('service_packages')
      .select('id')
      .where('service_id', '=', 'seo-management')
      .orderBy('price_minor')
      .executeTakeFirstOrThrow()
    const billedPer = async (title: string, per: string) => {
      await page.goto('/cart')
      await expect(page.getByTestId('cart-item').filter({ hasText: title })).toContainText(per)
      await page.goto('/payment')
      const summary = page.getByRole('region', { name: 'Order summary (USD)' }).getByRole('listitem')
      await expect(summary.filter({ hasText: title })).toContainText(per)
      const course = summary.filter({ hasNotText: title })
      await expect(course).toHaveCount(1)
      await expect(course).not.toContainText('/')
    }
    await addCartItem(db, user.id, { kind: 'course', courseId: 'modern-react-typescript' })
    // A plan and a monthly service are checked out separately (decision 0136): one cart, then the other.
    await addCartItem(db, user.id, { kind: 'plan', planId: 'pro', billingCycle: 'annual' })
    await billedPer('Pro Plan', '$199.99 / year')
    await db.deleteFrom('cart_items').where('user_id', '=', user.id).where('kind', '=', 'plan').execute()
    await addCartItem(db, user.id, { kind: 'service_package', packageId: seo.id })
    await billedPer('Starter SEO Monthly', '$499.00 / month')
  })

  test('a plan and a monthly service are checked out separately: the cart and checkout say so', async ({
    page,
    login,
    db,
  }) => {
    const user = await login()
    await addCartItem(db, user.id, { kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    // Adding the monthly service beside the plan is refused, saying what to do.
    await page.goto('/service/seo-management')
    const starter = page
      .getByTestId('package-card')
      .filter({ has: page.getByRole('heading', { name: 'Starter SEO Monthly', exact: true }) })
    await starter.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByText(CART_MESSAGES.planWithService)).toBeVisible()
    await expect(starter.getByRole('button', { name: 'Add to Cart' })).toBeEnabled()

    // A cart that holds both anyway (filled before the rule): no checkout of the two together.
    const seo = await db
      .selectFrom('service_packages')
      .select('id')
      .where('service_id', '=', 'seo-management')
      .where('name', '=', 'Starter SEO Monthly')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('cart_items')
      .values({ user_id: user.id, kind: 'service_package', service_package_id: seo.id })
      .execute()
    await page.goto('/cart')
    await expect(page.getByTestId('plan-with-service')).toHaveText(PAYMENT_MESSAGES.planWithService)
    await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeDisabled()
    await page.goto('/payment')
    await expect(page.getByTestId('plan-with-service')).toHaveText(PAYMENT_MESSAGES.planWithService)
    await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
    await expect(page.getByRole('button', { name: /^Pay |^Start Free Trial$/ })).toBeDisabled()

    // Removing one checks out the other.
    await page.goto('/cart')
    await page
      .getByTestId('cart-item')
      .filter({ hasText: 'Starter SEO Monthly' })
      .getByRole('button', { name: /Remove/ })
      .click()
    await expect(page.getByTestId('plan-with-service')).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeEnabled()
  })

  test('checkout says what the 7-day free trial is: a card defers the plan’s price, PayPal and bank transfer do not', async ({
    page,
    login,
    db,
  }) => {
    const user = await login()
    await addCartItem(db, user.id, { kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    await page.goto('/payment')
    const note = page.getByTestId('trial-note')
    await expect(page.getByRole('button', { name: 'Pay $19.99' })).toBeVisible()
    await expect(note).toHaveCount(0) // nothing to say before a method is chosen
    await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
    await expect(note).toHaveText(
      'Pro Plan starts with a 7-day free trial: its $19.99 is charged when the trial ends, unless you cancel before.',
    )
    // The button says what is charged today: nothing.
    await expect(page.getByRole('button', { name: 'Start Free Trial' })).toBeVisible()
    await page.getByRole('radio', { name: /Bank Transfer/ }).check()
    await expect(note).toHaveText(
      'The 7-day free trial needs a card: with a bank transfer, Pro Plan starts when your payment arrives.',
    )
    await expect(page.getByRole('button', { name: 'Pay $19.99' })).toBeVisible()

    // With a course beside the plan, the card pays the course today and the plan when the trial ends.
    await addCartItem(db, user.id, { kind: 'course', courseId: 'modern-react-typescript' })
    const course = await db
      .selectFrom('courses')
      .select('price_minor')
      .where('id', '=', 'modern-react-typescript')
      .executeTakeFirstOrThrow()
    await page.reload()
    await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
    await expect(
      page.getByRole('button', { name: `Pay ${formatMoney(course.price_minor, 'USD')} today` }),
    ).toBeVisible()
  })

  // Decision 0145: back from Stripe's page with a changed cart, the shopper was charged for the removed course too.
  test('back from the card page, a removed course is not charged: the cart shows the payment in progress', async ({
    page,
    login,
    db,
  }) => {
    test.setTimeout(60_000)
    const user = await login()
    const [first, second] = await db
      .selectFrom('courses')
      .select(['id', 'title', 'price_minor'])
      .where('status', '=', 'published')
      .where('currency', '=', 'USD')
      .where('price_minor', '>', 0)
      .orderBy('price_minor', 'desc')
      .limit(2)
      .execute()
    await addCartItem(db, user.id, { kind: 'course', courseId: first!.id })
    const usd = (minor: number) => `USD ${(minor / 100).toFixed(2)}`

    await page.goto('/payment')
    await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
    await page.getByRole('button', { name: `Pay ${formatMoney(first!.price_minor, 'USD')}` }).click()
    await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
    await expect(page.getByText(`Total: ${usd(first!.price_minor)}`)).toBeVisible()

    // Browser Back, then the cart: the payment still open at Stripe is named, with what it is for.
    await page.goBack()
    await page.goto('/cart')
    const reference = (
      await db.selectFrom('orders').select('reference').where('user_id', '=', user.id).executeTakeFirstOrThrow()
    ).reference
    const inProgress = page.getByTestId(`pending-card-${reference}`)
    await expect(inProgress).toContainText(`card payment in progress for ${first!.title}`)
    await expect(inProgress.getByRole('button', { name: 'Resume payment' })).toBeVisible()
    await page.getByRole('button', { name: `Remove ${first!.title}` }).click()
    await expect(page.getByRole('heading', { name: CART_MESSAGES.empty })).toBeVisible()

    await addCartItem(db, user.id, { kind: 'course', courseId: second!.id })
    await page.goto('/cart')
    await expect(page.getByTestId('cart-item')).toHaveCount(1)
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
    await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
    await page.getByRole('button', { name: `Pay ${formatMoney(second!.price_minor, 'USD')}` }).click()
    await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
    // Stripe's page asks for the amount the cart and Pay showed, not the removed course's on top.
    await expect(page.getByText(`Total: ${usd(second!.price_minor)}`)).toBeVisible()
    const orders = await db
      .selectFrom('orders')
      .select(['status', 'total_minor'])
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute()
    expect(orders).toEqual([
      { status: 'cancelled', total_minor: first!.price_minor },
      { status: 'pending', total_minor: second!.price_minor },
    ])
  })

  test('the Course Preview dialog adds to cart and the card follows', async ({ page, login }) => {
    await login()
    await page.goto('/')
    const card = page.getByTestId('course-card').first()
    const title = (await card.getByRole('heading').first().textContent())?.trim() ?? ''
    await card.getByRole('button', { name: `Preview ${title}` }).click()
    const dialog = page.getByRole('dialog', { name: title })
    await dialog.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(dialog.getByRole('button', { name: 'Added to Cart' })).toBeDisabled()
    await expect(page.getByText(`${title} added to cart`)).toBeVisible()
    await dialog.getByRole('button', { name: 'Close preview' }).click()
    await expect(card.getByRole('button', { name: 'Added to Cart' })).toBeDisabled()
    await expect(page.getByTestId('cart-count')).toHaveText('1')
  })
})

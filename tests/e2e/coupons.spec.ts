// Coupons in the browser: staff create a 20 % code limited to 2 uses at /admin/coupons; two buyers apply it on the
// cart (any case), see the discount per line and in the totals, and check out by bank transfer; a third is told the
// code is used up, then loses another code's last use to a rival while on the payment page. The expiry that gives a
// use back, the invoice, refund and earnings amounts are covered by tests/integration/promotions/coupons.test.ts. A
// once-per-customer code over a cart of two currencies (two orders) says only the first checkout gets it.
import { randomBytes } from 'node:crypto'
import { addCartItem } from '../../src-server/cart/repository.ts'
import { createFromCart } from '../../src-server/flows/cart-order.ts'
import { applyCoupon } from '../../src-server/flows/coupon-cart.ts'
import { createCoupon } from '../../src-server/promotions/coupons.ts'
import { formatMoney } from '../../src-shared/money.ts'
import { COUPON_REFUSALS, codeCoversFewerCheckouts, codeRemovedAtCheckout } from '../../src-shared/promotions.ts'
import { couponInput } from '../../src-shared/schemas/promotions.ts'
import { ownedCourse } from '../support/earnings.ts'
import { createUser } from '../support/factories.ts'
import { expect, test } from './fixtures.ts'

test('a 20 % code limited to 2 uses: two buyers get it, the third is told it is used up', async ({
  page,
  login,
  db,
}) => {
  test.setTimeout(90_000)
  const code = `E2E${randomBytes(3).toString('hex').toUpperCase()}`
  const course = await db
    .selectFrom('courses')
    .select(['id', 'title', 'price_minor'])
    .where('status', '=', 'published')
    .where('currency', '=', 'USD')
    .where('price_minor', '>', 1_000)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  const discount = Math.floor((course.price_minor * 20 + 50) / 100)
  const paid = course.price_minor - discount

  const editorUser = await login({ role: 'editor' })
  await page.goto('/admin/coupons')
  const editor = page.getByRole('form', { name: 'New coupon' })
  // Hostile input is refused with a reason under the field.
  await editor.getByLabel('Code').fill(code)
  await editor.getByLabel('Percent off').fill('150')
  await editor.getByRole('button', { name: 'Create coupon' }).click()
  await expect(editor.getByText('The percentage must be between 1 and 100')).toBeVisible()
  await editor.getByLabel('Percent off').fill('20')
  await editor.getByLabel('Total uses (optional)').fill('2')
  await editor.getByRole('button', { name: 'Create coupon' }).click()
  await expect(page.getByTestId('coupon-row').filter({ hasText: code })).toBeVisible()

  for (const buyer of ['first', 'second']) {
    await page.context().clearCookies()
    const user = await login({ firstName: buyer })
    await db.insertInto('cart_items').values({ user_id: user.id, kind: 'course', course_id: course.id }).execute()
    await page.goto('/cart')
    await page.getByRole('textbox', { name: 'Coupon code' }).fill(code.toLowerCase())
    await page.getByRole('button', { name: 'Apply code' }).click()
    await expect(page.getByTestId('coupon-applied')).toContainText(`Code ${code} applied`)
    await expect(page.getByTestId('discounted-price')).toHaveText(formatMoney(paid, 'USD'))
    await expect(page.getByTestId('discount-USD')).toContainText(formatMoney(discount, 'USD'))
    await expect(page.getByTestId('total-USD')).toHaveText(formatMoney(paid, 'USD'))
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
    await page.getByRole('radio', { name: /Bank Transfer/ }).check()
    await page.getByRole('button', { name: `Pay ${formatMoney(paid, 'USD')}` }).click()
    await expect(page.getByRole('dialog', { name: 'Bank Transfer Details' })).toBeVisible()
    const order = await db
      .selectFrom('orders')
      .select(['total_minor', 'discount_minor', 'coupon_code'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(order).toEqual({ total_minor: paid, discount_minor: discount, coupon_code: code })
  }

  await page.context().clearCookies()
  const third = await login({ firstName: 'third' })
  await db.insertInto('cart_items').values({ user_id: third.id, kind: 'course', course_id: course.id }).execute()
  await page.goto('/cart')
  await page.getByRole('textbox', { name: 'Coupon code' }).fill(code)
  await page.getByRole('button', { name: 'Apply code' }).click()
  await expect(page.getByText('This code has been used up').first()).toBeVisible()
  await expect(page.getByTestId('total-USD')).toHaveText(formatMoney(course.price_minor, 'USD'))

  // Decision 0145: a code's last use goes to another buyer while this one is on the payment page. Pay says the code
  // was removed and the page shows the full price (it kept the discount, and every retry was refused).
  const lastOne = `LAST${randomBytes(3).toString('hex').toUpperCase()}`
  const limited = { code: lastOne, kind: 'percent', percentOff: 20, appliesTo: 'everything', maxUses: 1 }
  await createCoupon(db, couponInput.parse(limited), editorUser.id)
  await page.getByRole('textbox', { name: 'Coupon code' }).fill(lastOne)
  await page.getByRole('button', { name: 'Apply code' }).click()
  await expect(page.getByTestId('coupon-applied')).toContainText(`Code ${lastOne} applied`)
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
  await page.getByRole('radio', { name: /Bank Transfer/ }).check()
  await expect(page.getByRole('button', { name: `Pay ${formatMoney(paid, 'USD')}` })).toBeVisible()
  const rival = await createUser(db)
  await addCartItem(db, rival.id, { kind: 'course', courseId: course.id })
  await applyCoupon(db, rival.id, lastOne)
  await createFromCart(db, { userId: rival.id, currency: 'USD', method: 'bank_transfer', referencePrefix: 'SF' })
  await page.getByRole('button', { name: `Pay ${formatMoney(paid, 'USD')}` }).click()
  await expect(page.getByText(codeRemovedAtCheckout(COUPON_REFUSALS.usedUp, lastOne))).toBeVisible()
  await page.getByRole('button', { name: `Pay ${formatMoney(course.price_minor, 'USD')}` }).click()
  await expect(page.getByRole('dialog', { name: 'Bank Transfer Details' })).toBeVisible()
  const order = await db
    .selectFrom('orders')
    .select(['total_minor', 'coupon_code'])
    .where('user_id', '=', third.id)
    .executeTakeFirstOrThrow()
  expect(order).toEqual({ total_minor: course.price_minor, coupon_code: null })
})

test('a once-per-customer code over a cart of two currencies says only the first checkout gets it; either may be paid first', async ({
  page,
  login,
  db,
}) => {
  const editor = await createUser(db, { role: 'editor' })
  const creator = await createUser(db)
  const inDollars = await ownedCourse(db, creator.id, 2_000)
  const inPounds = await ownedCourse(db, creator.id, 2_000)
  await db.updateTable('courses').set({ price_gbp_minor: 1_600 }).where('id', '=', inPounds.id).execute()
  const code = `ONCE${randomBytes(3).toString('hex').toUpperCase()}`
  const once = { code, kind: 'percent', percentOff: 10, appliesTo: 'everything', maxUsesPerCustomer: 1 }
  await createCoupon(db, couponInput.parse(once), editor.id)
  const buyer = await login()
  await db
    .insertInto('cart_items')
    .values([
      { user_id: buyer.id, kind: 'course', course_id: inDollars.id },
      { user_id: buyer.id, kind: 'course', course_id: inPounds.id, currency: 'GBP' },
    ])
    .execute()
  await page.goto('/cart')
  await page.getByRole('textbox', { name: 'Coupon code' }).fill(code)
  await page.getByRole('button', { name: 'Apply code' }).click()
  await expect(page.getByTestId('coupon-applied')).toContainText(`Code ${code} applied`)
  // Either currency may be paid first, so both show the discount; the note says only one of them will have it.
  await expect(page.getByTestId('discount-USD')).toContainText(formatMoney(200, 'USD'))
  await expect(page.getByTestId('discount-GBP')).toContainText(formatMoney(160, 'GBP'))
  await expect(page.getByTestId('coupon-note')).toHaveText(codeCoversFewerCheckouts(code, 1))
  // The payment page pays one currency at a time: the buyer picks the pounds, discounted as the cart showed.
  await page.getByRole('button', { name: 'Proceed to Checkout (USD)' }).click()
  await page.getByLabel('Items to pay for').selectOption('GBP')
  await expect(page).toHaveURL(/\/payment\?currency=GBP$/)
  await page.getByRole('radio', { name: /Bank Transfer/ }).check()
  await expect(page.getByRole('button', { name: `Pay ${formatMoney(1_440, 'GBP')}` })).toBeVisible()
})

// A course priced in USD and GBP (issue 30, decision 0069): a creator sets both prices in the studio's Details tab;
// once the course is on sale a buyer chooses "Pay in: Pounds", the cart and the payment page show the GBP price, and
// the bank-transfer order is for the GBP amount in GBP (the server's price, never the page's); a gift of it is paid in
// the currency chosen on the gift form.

import { createUser } from '../support/factories.ts'
import { makeCreator } from '../support/studio.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('a creator sets USD and GBP prices; a buyer choosing GBP pays the GBP price', async ({
  page,
  db,
  baseURL,
  browser,
}) => {
  test.setTimeout(90_000)
  const creator = await makeCreator(db, 'Pricing Creator')
  await signInAs(page, baseURL!, db, creator)
  await page.goto('/studio/courses/new')
  const title = `Two Currencies ${Date.now().toString(36)}`
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Category').selectOption({ label: 'Development' })
  await page.getByRole('button', { name: 'Create course' }).click()
  await expect(page).toHaveURL(/\/studio\/courses\/two-currencies/)
  const courseId = decodeURIComponent(new URL(page.url()).pathname.split('/')[3]!)
  await page.getByLabel('Price in USD ($)').fill('30')
  await page.getByLabel('Price in GBP (£)').fill('24.50')
  await page.getByRole('button', { name: 'Save details' }).click()
  await expect(page.getByText('Course saved')).toBeVisible()
  expect(
    await db
      .selectFrom('courses')
      .select(['price_minor', 'currency', 'price_usd_minor', 'price_gbp_minor'])
      .where('id', '=', courseId)
      .executeTakeFirstOrThrow(),
  ).toEqual({ price_minor: 3000, currency: 'USD', price_usd_minor: 3000, price_gbp_minor: 2450 })
  // Review is another spec's: here the course goes on sale directly.
  await db
    .updateTable('courses')
    .set({ status: 'published', published_at: new Date() })
    .where('id', '=', courseId)
    .execute()

  const shopper = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const buyerPage = await shopper.newPage()
  const buyer = await createUser(db)
  await signInAs(buyerPage, baseURL!, db, buyer)
  await buyerPage.goto(`${baseURL}/courses/${courseId}`)
  await buyerPage.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  const box = buyerPage.getByRole('complementary', { name: 'Purchase' })
  await expect(box.getByTestId('course-price')).toHaveText('$30.00')
  await box.getByLabel('Pay in').selectOption('GBP')
  await expect(box.getByTestId('course-price')).toHaveText('£24.50')
  await box.getByRole('button', { name: 'Add to Cart' }).click()
  await expect(buyerPage.getByText(`${title} added to cart`)).toBeVisible()

  await buyerPage.goto(`${baseURL}/cart`)
  await buyerPage.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await expect(buyerPage.getByTestId('total-GBP')).toHaveText('£24.50')
  await expect(buyerPage.getByTestId('total-USD')).toHaveCount(0)
  await buyerPage.getByRole('button', { name: 'Proceed to Checkout' }).click()
  await buyerPage.getByRole('radio', { name: /Bank Transfer/ }).check()
  await buyerPage.getByRole('button', { name: 'Pay £24.50' }).click()
  await expect(buyerPage.getByRole('dialog', { name: 'Bank Transfer Details' })).toBeVisible()

  const order = await db
    .selectFrom('orders')
    .innerJoin('order_items as oi', 'oi.order_id', 'orders.id')
    .select(['orders.currency', 'orders.total_minor', 'oi.unit_price_minor', 'oi.course_id'])
    .where('orders.user_id', '=', buyer.id)
    .execute()
  expect(order).toEqual([{ currency: 'GBP', total_minor: 2450, unit_price_minor: 2450, course_id: courseId }])

  // Given as a gift, the course is paid in the currency chosen on the gift form too.
  await buyerPage.goto(`${baseURL}/gifts/new?course=${encodeURIComponent(courseId)}`)
  await buyerPage.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await expect(buyerPage.getByText('$30.00', { exact: true })).toBeVisible()
  await buyerPage.getByLabel('Pay in').selectOption('GBP')
  await expect(buyerPage.getByText('£24.50', { exact: true })).toBeVisible()
  await buyerPage.getByLabel("Recipient's email").fill(`pounds-${Date.now().toString(36)}@example.com`)
  await buyerPage.getByRole('radio', { name: /Bank Transfer/ }).check()
  await buyerPage.getByRole('button', { name: 'Pay for Gift' }).click()
  await expect(buyerPage.getByRole('dialog', { name: 'Bank Transfer Details' })).toBeVisible()
  const gift = await db
    .selectFrom('orders')
    .select(['currency', 'total_minor'])
    .where('user_id', '=', buyer.id)
    .where('source', '=', 'gift')
    .executeTakeFirstOrThrow()
  expect(gift).toEqual({ currency: 'GBP', total_minor: 2450 })
  await shopper.close()
})

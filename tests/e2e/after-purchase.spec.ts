// After the purchase: staff refund one course of a two-course order (it no longer opens, the other does, the buyer
// sees the credit note); a refund request approved; an abandoned card checkout resumed from My Account; a PayPal
// order on the cart page; a free course enrolled without checkout; the invoice PDF named INV-YYYY-NNNNNN.
import { readFile } from 'node:fs/promises'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { markPaid } from '../../src-server/flows/pay-order.ts'
import { createUser } from '../support/factories.ts'
import { placeOrder } from '../support/orders.ts'
import { pricedCourses } from '../support/shop.ts'
import { expect, signInAs, test } from './fixtures.ts'

let counter = 0

/** The newest-first end of the catalogue, away from the courses other specs buy. */
const paidCourses = async (db: Kysely<Database>, count: number, offset: number) =>
  (await pricedCourses(db, { count: 40 })).reverse().slice(offset, offset + count)

/** A bank-transfer order for the courses, paid as staff confirm it (the server's own payment path). */
async function paidOrder(
  db: Kysely<Database>,
  userId: string,
  courses: { id: string; title: string; price_minor: number }[],
) {
  counter += 1
  const reference = `SF-AP-${Date.now().toString(36).toUpperCase()}-${counter}`
  const orderId = await placeOrder(db, {
    userId,
    reference,
    courses,
    method: 'bank_transfer',
    status: 'awaiting_transfer',
  })
  expect(await markPaid(db, orderId, { source: 'staff' })).toBe('fulfilled')
  return reference
}

const addToCart = (db: Kysely<Database>, userId: string, courseId: string) =>
  db.insertInto('cart_items').values({ user_id: userId, kind: 'course', course_id: courseId }).execute()

test('staff refund one course of a two-course order: it closes, the other stays, the buyer sees a credit note', async ({
  page,
  db,
  baseURL,
}) => {
  const buyer = await createUser(db)
  const [kept, refunded] = await paidCourses(db, 2, 0)
  const reference = await paidOrder(db, buyer.id, [kept!, refunded!])

  await signInAs(page, baseURL!, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/orders')
  const row = page.getByTestId(`order-${reference}`)
  await expect(row.getByText('Paid', { exact: true })).toBeVisible()
  await row.getByRole('button', { name: 'Refund' }).click()
  const dialog = page.getByRole('dialog', { name: 'Refund order' })
  await dialog.getByRole('checkbox', { name: new RegExp(kept!.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).uncheck()
  await dialog.getByLabel('Refund reference (PayPal or bank)').fill('BANK-REFUND-1')
  await dialog.getByRole('button', { name: 'Refund 1 line(s)' }).click()
  await expect(page.getByText(/^Refunded \$/)).toBeVisible()
  await expect(row.getByText('Partially refunded')).toBeVisible()
  // Staff refunding again see what the order has been given back: its invoice and the credit note just issued.
  await row.getByRole('button', { name: 'Refund' }).click()
  await expect(dialog.getByRole('link', { name: /^View invoice INV-\d{4}-\d{6}$/ })).toBeVisible()
  await expect(dialog.getByRole('link', { name: /^View credit note CN-\d{4}-\d{6}$/ })).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()

  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, buyer)
  await page.goto(`/courses/${refunded!.id}`)
  const purchase = page.getByRole('complementary', { name: 'Purchase' })
  await expect(purchase.getByRole('button', { name: 'Add to Cart' })).toBeVisible()
  await page.goto(`/courses/${kept!.id}`)
  await expect(purchase.getByRole('link', { name: 'Go to course' })).toBeVisible()

  await page.goto('/account')
  const order = page.getByTestId(`buyer-order-${reference}`)
  await expect(order.getByTestId('order-status')).toHaveText('Partially refunded')
  await expect(page.getByTestId('my-courses')).toContainText(kept!.title)
  await expect(page.getByTestId('my-courses')).not.toContainText(refunded!.title)
  await order.getByRole('link', { name: /^View credit note CN-\d{4}-\d{6}$/ }).click()
  await expect(page.getByRole('heading', { name: /^Credit note CN-\d{4}-\d{6}$/ })).toBeVisible()
  await expect(page.getByRole('article')).toContainText(refunded!.title)
  await expect(page.getByRole('article')).toContainText(/Credit for invoice: INV-\d{4}-\d{6}/)
})

test('a buyer requests a refund and staff approve it', async ({ page, db, baseURL }) => {
  const buyer = await createUser(db)
  const [course] = await paidCourses(db, 1, 2)
  const reference = await paidOrder(db, buyer.id, [course!])

  await signInAs(page, baseURL!, db, buyer)
  await page.goto('/account')
  const order = page.getByTestId(`buyer-order-${reference}`)
  await order.getByRole('button', { name: 'Request a refund' }).click()
  await order.getByLabel(`Why would you like a refund of ${course!.title}?`).fill('It was not what I expected')
  await order.getByRole('button', { name: 'Send refund request' }).click()
  await expect(page.getByText('Refund requested. We will reply by e-mail.')).toBeVisible()
  await expect(order.getByText('Refund requested')).toBeVisible()
  await expect(order.getByText('Refund requested')).toBeFocused() // where the form was, not the top of the page

  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/orders')
  await expect(page.getByTestId('refund-request-count')).toContainText(/\d+ refund requests?/)
  const request = page.getByTestId(`refund-request-${reference}`)
  await expect(request).toContainText('It was not what I expected')
  await request.getByRole('button', { name: 'Approve' }).click()
  // The pressed button gave way to the reference field, which takes the focus.
  await expect(request.getByLabel('Refund reference (PayPal or bank)')).toBeFocused()
  await request.getByLabel('Refund reference (PayPal or bank)').fill('BANK-REFUND-2')
  await request.getByRole('button', { name: 'Approve and refund' }).click()
  await expect(page.getByText('Refund approved')).toBeVisible()
  // The request left the list with the focused button: the page's heading has the focus, not <body>.
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused()
  await expect(page.getByTestId(`order-${reference}`).getByText('Refunded', { exact: true })).toBeVisible()

  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, buyer)
  await page.goto('/account')
  await expect(order.getByTestId('order-status')).toHaveText('Refunded')
  await expect(order.getByText('Refunded', { exact: true }).first()).toBeVisible()
})

test('the refund request form by keyboard: opening it focuses the reason, Cancel gives focus back', async ({
  page,
  db,
  baseURL,
}) => {
  const buyer = await createUser(db)
  const [course] = await paidCourses(db, 1, 3)
  const reference = await paidOrder(db, buyer.id, [course!])
  await signInAs(page, baseURL!, db, buyer)
  await page.goto('/account')
  const order = page.getByTestId(`buyer-order-${reference}`)
  await order.getByRole('button', { name: 'Request a refund' }).focus()
  await page.keyboard.press('Enter')
  await expect(order.getByLabel(`Why would you like a refund of ${course!.title}?`)).toBeFocused()
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  await expect(order.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(order.getByRole('button', { name: 'Request a refund' })).toBeFocused()
})

test('an abandoned card checkout is resumed from My Account and paid', async ({ page, login, db }) => {
  const user = await login()
  const [course] = await paidCourses(db, 1, 3)
  await addToCart(db, user.id, course!.id)
  await page.goto('/payment')
  await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
  await page.getByRole('button', { name: /^Pay / }).click()
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()

  // The shopper walks away; later, My Account offers to resume the pending payment.
  await page.goto('/account')
  await expect(page.getByTestId('order-status').first()).toHaveText('Pending')
  await page.getByRole('button', { name: 'Resume payment' }).click()
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible()
  const orders = await db.selectFrom('orders').select('status').where('user_id', '=', user.id).execute()
  expect(orders).toEqual([{ status: 'paid' }])
})

test('a PayPal order shows on the cart page until confirmed; cancelling gives the cart back', async ({
  page,
  login,
  db,
}) => {
  await page.context().route('https://paypal.me/**', (route) => route.fulfill({ body: 'PayPal' }))
  const user = await login()
  const [course] = await paidCourses(db, 1, 4)
  await addToCart(db, user.id, course!.id)
  await page.goto('/payment')
  await page.getByRole('radio', { name: /PayPal/ }).check()
  await page.getByRole('button', { name: /^Pay / }).click()
  await expect(page).toHaveURL(/\/cart$/)
  const order = await db
    .selectFrom('orders')
    .select('reference')
    .where('user_id', '=', user.id)
    .executeTakeFirstOrThrow()
  const pending = page.getByTestId(`pending-paypal-${order.reference}`)
  await expect(pending).toContainText(order.reference)
  await expect(pending).toContainText(course!.title)
  await expect(pending.getByRole('link', { name: 'Pay with PayPal' })).toHaveAttribute(
    'href',
    /^https:\/\/paypal\.me\/skillforge-e2e\/\d+\.\d{2}USD$/,
  )
  await pending.getByRole('button', { name: `Cancel order ${order.reference}` }).click()
  await expect(page.getByText('Order cancelled')).toBeVisible()
  await expect(pending).toHaveCount(0)
  await expect(page.getByTestId('cart-item')).toHaveCount(1)
})

test('a free course is enrolled without cart or checkout', async ({ page, login, db }) => {
  const user = await login()
  const free = await db
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('status', '=', 'published')
    .where('price_minor', '=', 0)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  await page.goto(`/courses/${free.id}`)
  const purchase = page.getByRole('complementary', { name: 'Purchase' })
  await purchase.getByRole('button', { name: 'Enrol for free' }).click()
  await expect(page.getByText(`You are enrolled in ${free.title}`)).toBeVisible()
  await expect(purchase.getByRole('link', { name: 'Go to course' })).toBeVisible()
  expect(await db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute()).toEqual([])
  expect(await db.selectFrom('cart_items').select('id').where('user_id', '=', user.id).execute()).toEqual([])
})

test('the invoice PDF downloads and its number is INV-YYYY-NNNNNN', async ({ page, db, baseURL }) => {
  const buyer = await createUser(db)
  const [course] = await paidCourses(db, 1, 5)
  const reference = await paidOrder(db, buyer.id, [course!])
  await signInAs(page, baseURL!, db, buyer)
  await page.goto('/account')
  const order = page.getByTestId(`buyer-order-${reference}`)
  const link = order.getByRole('link', { name: /^Download PDF INV-\d{4}-\d{6}$/ })
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
  const number = download.suggestedFilename().replace(/\.pdf$/, '')
  expect(number).toMatch(new RegExp(`^INV-${new Date().getUTCFullYear()}-\\d{6}$`))
  const bytes = await readFile((await download.path())!)
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
  expect(bytes.toString('latin1')).toContain(`(${number})`)
})

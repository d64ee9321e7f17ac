// After the purchase, at its edges (decision 0026), with signed Stripe webhooks sent to the running server as Stripe
// would send them: a dispute makes the order Disputed in /admin/orders and closes its course, a won dispute opens
// it again; a partial refund made in the Stripe dashboard is reconciled and staff assign it to a line; an abandoned
// card checkout Stripe expired shows as Expired in My Account.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { markPaid } from '../../src-server/flows/pay-order.ts'
import { createUser } from '../support/factories.ts'
import { placeOrder } from '../support/orders.ts'
import { pricedCourses } from '../support/shop.ts'
import { expect, signInAs, test } from './fixtures.ts'
import { deliver, disputeOf, paidCardOrder, token } from './stripe-webhook.ts'

/** Courses from the middle of the catalogue, away from the ones other specs buy. */
const someCourses = async (db: Kysely<Database>, count: number, offset: number) =>
  (await pricedCourses(db, { count: 60 })).reverse().slice(offset, offset + count)

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

test('a dispute closes the order’s course and shows Disputed to staff; a won dispute gives it back', async ({
  page,
  db,
  baseURL,
}) => {
  const buyer = await createUser(db)
  const [course] = await someCourses(db, 1, 12)
  const order = await paidCardOrder(db, buyer.id, [course!])
  const { reference } = order
  const dispute = (status: string) => disputeOf(order, status)
  await deliver(baseURL!, 'charge.dispute.created', dispute('needs_response'))

  const admin = await createUser(db, { role: 'admin' })
  await signInAs(page, baseURL!, db, admin)
  await page.goto('/admin/orders')
  const row = page.getByTestId(`order-${reference}`)
  await expect(row.getByText('Disputed', { exact: true })).toBeVisible()
  await expect(row.getByRole('button', { name: 'Refund' })).toHaveCount(0)

  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, buyer)
  await page.goto(`/courses/${course!.id}`)
  const purchase = page.getByRole('complementary', { name: 'Purchase' })
  await expect(purchase.getByRole('button', { name: 'Add to Cart' })).toBeVisible()
  await page.goto('/account')
  await expect(page.getByTestId(`buyer-order-${reference}`).getByTestId('order-status')).toHaveText('Disputed')

  await deliver(baseURL!, 'charge.dispute.closed', dispute('won'))
  await page.goto(`/courses/${course!.id}`)
  await expect(purchase.getByRole('link', { name: 'Go to course' })).toBeVisible()
  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, admin)
  await page.goto('/admin/orders')
  await expect(row.getByText('Paid', { exact: true })).toBeVisible()
})

test('a partial refund made in the Stripe dashboard is reconciled; staff assign it to the line it gave back', async ({
  page,
  db,
  baseURL,
}) => {
  const buyer = await createUser(db)
  const [kept, given] = await someCourses(db, 2, 14)
  const { reference, paymentIntent, total } = await paidCardOrder(db, buyer.id, [kept!, given!])
  const refundId = `re_e2e_${token()}`
  await deliver(baseURL!, 'charge.refunded', {
    id: `ch_${paymentIntent.slice(3)}`,
    object: 'charge',
    amount: total,
    amount_refunded: given!.price_minor,
    payment_intent: paymentIntent,
    refunded: false,
    refunds: { object: 'list', data: [{ id: refundId, object: 'refund', amount: given!.price_minor }] },
  })

  await signInAs(page, baseURL!, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/orders')
  const row = page.getByTestId(`order-${reference}`)
  await expect(row.getByText('Partially refunded', { exact: true })).toBeVisible()
  await expect(row.getByText('Needs line assignment')).toBeVisible()
  await row.getByRole('button', { name: 'Assign lines' }).click()
  const dialog = page.getByRole('dialog', { name: 'Assign refunded lines' })
  await expect(dialog).toContainText(refundId)
  await dialog.getByRole('checkbox', { name: new RegExp(literal(given!.title)) }).check()
  await dialog.getByRole('button', { name: 'Revoke 1 line(s)' }).click()
  await expect(page.getByText('1 line(s) marked refunded')).toBeVisible()
  await expect(row.getByText('Needs line assignment')).toHaveCount(0)

  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, buyer)
  await page.goto(`/courses/${given!.id}`)
  const purchase = page.getByRole('complementary', { name: 'Purchase' })
  await expect(purchase.getByRole('button', { name: 'Add to Cart' })).toBeVisible()
  await page.goto(`/courses/${kept!.id}`)
  await expect(purchase.getByRole('link', { name: 'Go to course' })).toBeVisible()
  await page.goto('/account')
  const order = page.getByTestId(`buyer-order-${reference}`)
  await expect(order.getByTestId('order-status')).toHaveText('Partially refunded')
  await expect(order.getByRole('link', { name: /^View credit note CN-\d{4}-\d{6}$/ })).toBeVisible()
})

test('an abandoned card checkout that Stripe expired shows as Expired in My Account', async ({
  page,
  login,
  db,
  baseURL,
}) => {
  const user = await login()
  const [course] = await someCourses(db, 1, 16)
  await db.insertInto('cart_items').values({ user_id: user.id, kind: 'course', course_id: course!.id }).execute()
  await page.goto('/payment')
  await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
  await page.getByRole('button', { name: /^Pay / }).click()
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  const order = await db
    .selectFrom('orders')
    .select(['id', 'reference', 'stripe_session_id'])
    .where('user_id', '=', user.id)
    .executeTakeFirstOrThrow()

  await deliver(baseURL!, 'checkout.session.expired', {
    id: order.stripe_session_id,
    object: 'checkout.session',
    status: 'expired',
    payment_status: 'unpaid',
    client_reference_id: order.id,
    metadata: { orderId: order.id, reference: order.reference },
  })
  await page.goto('/account')
  const row = page.getByTestId(`buyer-order-${order.reference}`)
  await expect(row.getByTestId('order-status')).toHaveText('Expired')
  await expect(row.getByRole('button', { name: 'Resume payment' })).toHaveCount(0)
})

test('the invoice page shows Stripe Tax’s lines per jurisdiction', async ({ page, db, baseURL }) => {
  // The e2e server runs without STRIPE_TAX (one server for every spec): the order is paid as the webhook pays a
  // taxed session (tests/integration/payments/stripe-refunds-disputes-tax-and-expiry.test.ts covers Stripe's side through HTTP).
  const buyer = await createUser(db)
  const [course] = await someCourses(db, 1, 18)
  const reference = `SF-TAX-${Date.now().toString(36).toUpperCase()}-${token().slice(0, 4)}`
  const orderId = await placeOrder(db, { userId: buyer.id, reference, courses: [course!], method: 'card' })
  const tax = Math.round(course!.price_minor * 0.2)
  const state = Math.round((tax * 3) / 4)
  const taxLines = [
    { name: 'Sales Tax — California 15%', amountMinor: state },
    { name: 'City Tax — San Francisco 5%', amountMinor: tax - state },
  ]
  const paid = await markPaid(db, orderId, {
    source: 'stripe',
    stripePaymentIntentId: `pi_e2e_${token()}`,
    capturedMinor: course!.price_minor + tax,
    taxMinor: tax,
    taxLines,
  })
  expect(paid).toBe('fulfilled')

  await signInAs(page, baseURL!, db, buyer)
  await page.goto('/account')
  await page
    .getByTestId(`buyer-order-${reference}`)
    .getByRole('link', { name: /^View invoice INV-\d{4}-\d{6}$/ })
    .click()
  const invoice = page.getByRole('article')
  const money = (minor: number) => `$${(minor / 100).toFixed(2)}`
  await expect(invoice.getByRole('row', { name: `Sales Tax — California 15% ${money(state)}` })).toBeVisible()
  await expect(invoice.getByRole('row', { name: `City Tax — San Francisco 5% ${money(tax - state)}` })).toBeVisible()
  await expect(invoice).toContainText(money(course!.price_minor + tax))
})

// The Orders page: the owner marks a bank-transfer order paid (the buyer is enrolled) and cancels another;
// the dashboard's 30-day revenue counts the paid one.
import { type Kysely, sql } from 'kysely'
import type { Database } from '../../db/types.ts'
import { createUser } from '../support/factories.ts'
import { placeOrder } from '../support/orders.ts'
import { paidServiceOrder } from '../support/service-orders.ts'
import { expect, test } from './fixtures.ts'

function placeBankOrder(db: Kysely<Database>, userId: string, reference: string, courseId: string, totalMinor: number) {
  return placeOrder(db, {
    userId,
    courseId,
    reference,
    method: 'bank_transfer',
    status: 'awaiting_transfer',
    currency: 'GBP',
    totalMinor,
    title: 'Course',
  })
}

test('the owner marks a bank-transfer order paid and cancels another; the dashboard counts the revenue', async ({
  page,
  db,
}) => {
  const buyer = await createUser(db, { role: 'customer' })
  const course = await db.selectFrom('courses').select('id').where('status', '=', 'published').executeTakeFirstOrThrow()
  const stamp = Date.now().toString(36).toUpperCase()
  const paidId = await placeBankOrder(db, buyer.id, `SF-E2E-${stamp}-A`, course.id, 12345)
  await placeBankOrder(db, buyer.id, `SF-E2E-${stamp}-B`, course.id, 500)

  await page.goto('/admin/login')
  await page.getByLabel('Email').fill(process.env.E2E_ADMIN_EMAIL as string)
  await page.getByLabel('Password').fill(process.env.E2E_ADMIN_PASSWORD as string)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/admin$/)
  await page
    .getByRole('complementary', { name: 'Admin navigation' })
    .getByRole('link', { name: 'Orders', exact: true })
    .click()
  // The buyer's orders, found by their address: other specs' orders could push them off the first page.
  await page.getByLabel('Order reference or customer e-mail').fill(buyer.email)
  await page.getByRole('button', { name: 'Find', exact: true }).click()

  const first = page.getByTestId(`order-SF-E2E-${stamp}-A`)
  await expect(first.getByText('Awaiting transfer')).toBeVisible()
  await expect(first.getByText('£123.45')).toBeVisible()
  await first.getByRole('button', { name: 'Mark paid' }).click()
  await expect(page.getByText('Order marked as paid')).toBeVisible()
  await expect(first.getByText('Paid', { exact: true })).toBeVisible()
  const enrolment = await db
    .selectFrom('access_grants')
    .where('kind', '=', 'course')
    .select('order_id')
    .where('user_id', '=', buyer.id)
    .executeTakeFirst()
  expect(enrolment?.order_id).toBe(paidId)

  const second = page.getByTestId(`order-SF-E2E-${stamp}-B`)
  await second.getByRole('button', { name: 'Cancel order' }).click()
  await expect(page.getByText('Order cancelled')).toBeVisible()
  await expect(second.getByText('Cancelled')).toBeVisible()
  await expect(second.getByRole('button')).toHaveCount(0)

  await page.getByRole('complementary', { name: 'Admin navigation' }).getByRole('link', { name: 'Dashboard' }).click()
  const paid = await db
    .selectFrom('orders')
    .select(sql<string>`sum(captured_minor - refunded_minor)`.as('sum'))
    // As the dashboard counts: what orders paid within its 30 days took less what was refunded since, refunded or
    // not (rows other tests wrote as paid without a payment time don't count).
    .where('captured_minor', '>', 0)
    .where('currency', '=', 'GBP')
    .where('paid_at', '>=', new Date(Date.now() - 29 * 24 * 60 * 60 * 1000))
    .executeTakeFirstOrThrow()
  const pounds = (Number(paid.sum) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })
  await expect(page.getByTestId('sales-GBP').getByText(`£${pounds}`, { exact: true })).toBeVisible()
  await expect(page.getByTestId('sales-GBP').getByRole('img')).toBeVisible()
})

test('staff find an order by its reference and a customer’s orders by their address, which no request URL holds', async ({
  page,
  login,
  db,
}) => {
  await login({ role: 'viewer' })
  const buyer = await createUser(db, { role: 'customer', email: `find-orders-${Date.now()}@example.test` })
  const course = await db.selectFrom('courses').select('id').where('status', '=', 'published').executeTakeFirstOrThrow()
  const stamp = Date.now().toString(36).toUpperCase()
  await placeBankOrder(db, buyer.id, `SF-FIND-${stamp}-A`, course.id, 1000)
  await placeBankOrder(db, buyer.id, `SF-FIND-${stamp}-B`, course.id, 2000)
  const addresses: string[] = []
  page.on('request', (request) => addresses.push(decodeURIComponent(request.url())))
  await page.goto('/admin/orders')
  const find = page.getByRole('search', { name: 'Find an order' })
  const field = find.getByLabel('Order reference or customer e-mail')

  await field.fill(`sf-find-${stamp}-b`)
  await field.press('Enter')
  await expect(page.getByTestId(/^order-/)).toHaveCount(1)
  await expect(page.getByTestId(`order-SF-FIND-${stamp}-B`)).toContainText('£20.00')

  await field.fill(buyer.email.toUpperCase())
  await find.getByRole('button', { name: 'Find', exact: true }).click()
  await expect(page.getByTestId(/^order-/)).toHaveCount(2)
  await expect(page.getByTestId(`order-SF-FIND-${stamp}-A`)).toContainText(buyer.email)

  await field.fill('find-orders@')
  await field.press('Enter')
  await expect(find.getByText('Enter a whole e-mail address, such as name@example.com')).toBeVisible()
  await expect(field).toBeFocused()
  await expect(page.getByTestId(/^order-/)).toHaveCount(2) // the last search's orders stay

  await field.fill(`SF-FIND-${stamp}-C`)
  await field.press('Enter')
  await expect(page.getByText(`No order with the reference or customer SF-FIND-${stamp}-C`)).toBeVisible()
  await find.getByRole('button', { name: 'Show all' }).click()
  await expect(field).toHaveValue('')
  await expect(page.getByTestId(`order-SF-FIND-${stamp}-B`)).toBeVisible()
  expect(addresses.filter((address) => address.toLowerCase().includes('find-orders-'))).toEqual([])
})

test('a list page past the end (an old link, its last rows worked off) offers the way back to the last page', async ({
  page,
  login,
  db,
}) => {
  await login({ role: 'viewer' })
  const buyer = await createUser(db)
  await paidServiceOrder(db, buyer.id)
  await page.goto('/admin/service-orders?page=3')
  await expect(page.getByText('No service orders found')).toBeVisible()
  await page.getByRole('button', { name: 'Go to page 1' }).click()
  await expect(page.getByTestId('service-order-row').filter({ hasText: buyer.email })).toBeVisible()
})

test('an order paid with nothing (a 100% coupon) offers no Refund, which could only answer nothing to refund', async ({
  page,
  login,
  db,
}) => {
  await login({ role: 'admin' })
  const buyer = await createUser(db)
  const course = await db.selectFrom('courses').select('id').where('status', '=', 'published').executeTakeFirstOrThrow()
  const stamp = Date.now().toString(36).toUpperCase()
  const [free, paid] = [`SF-E2E-${stamp}-F`, `SF-E2E-${stamp}-P`]
  await placeOrder(db, {
    userId: buyer.id,
    courseId: course.id,
    reference: free,
    method: 'free',
    status: 'paid',
    totalMinor: 0,
  })
  await placeOrder(db, {
    userId: buyer.id,
    courseId: course.id,
    reference: paid,
    method: 'bank_transfer',
    status: 'paid',
  })
  await page.goto('/admin/orders?status=paid')
  await expect(page.getByTestId(`order-${paid}`).getByRole('button', { name: 'Refund' })).toBeVisible()
  await expect(page.getByTestId(`order-${free}`)).toBeVisible()
  await expect(page.getByTestId(`order-${free}`).getByRole('button', { name: 'Refund' })).toHaveCount(0)
})

test('a mangled or unknown service-order address is the admin not-found page', async ({ page, login }) => {
  await login({ role: 'viewer' })
  for (const path of ['/admin/service-orders/1234-abcd', `/admin/service-orders/${crypto.randomUUID()}`]) {
    await page.goto(path)
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
    await expect(page.getByText('Invalid UUID')).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Try Again' })).toHaveCount(0)
  }
})

test('a service-order queue link with an unknown assignee shows the unfiltered queue', async ({ page, login, db }) => {
  await login({ role: 'viewer' })
  const buyer = await createUser(db)
  await paidServiceOrder(db, buyer.id)
  await page.goto('/admin/service-orders?assignee=foo')
  await expect(page.getByTestId('service-order-row').filter({ hasText: buyer.email })).toBeVisible()
  await expect(page.getByLabel('Filter by assignee')).toHaveValue('')
})

test('refund requests that fail to load say so, with Try Again', async ({ page, login }) => {
  await login({ role: 'admin' })
  let failing = true
  await page.route('**/trpc/**', (route) =>
    failing && route.request().url().includes('admin.orders.requests')
      ? route.abort('connectionfailed')
      : route.fallback(),
  )
  await page.goto('/admin/orders')
  const alert = page.getByRole('alert').filter({ hasText: 'Could not load refund requests' })
  await expect(alert).toBeVisible()
  failing = false
  await alert.getByRole('button', { name: 'Try Again' }).click()
  await expect(alert).toHaveCount(0)
})

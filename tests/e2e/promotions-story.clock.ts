// Issue 32's "Done when" in the browser, with the server's clock moved (TEST_CLOCK): staff make a 20 % code limited to
// 2 uses at /admin/coupons; buyer 1 pays two courses by card with it, buyer 2 orders by bank transfer with it, buyer 3
// is told it is used up; 7 days on the unpaid bank order expires (orders.expire, decision 0051) and buyer 3 may use
// the code. Buyer 1's invoice, a partial refund (its credit note) and the creator's earnings page all show the same
// discounted amounts. Before it (the clock moves last): a bundle is bought and one course of it refunded by card.
// (The gift story that stood here repeated tests/e2e/gifts.spec.ts step for step, and was removed.) (The bundle part was fixme while this process's clock lagged the
// server's moved one, so the factories' rows were dated in the server's past; since followServerClock it passes, also
// after the server's clock moved 40 days on: the card refund revokes exactly the refunded course.)
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../../db/types.ts'
import { formatMoney } from '../../src-shared/money.ts'
import { createCreator } from '../support/creator-courses.ts'
import { ownedCourse } from '../support/earnings.ts'
import { createUser } from '../support/factories.ts'
import { pdfText } from '../support/pdf.ts'
import { advanceServerClock, expect, followServerClock, signInAs, test } from './fixtures.ts'

// The clock specs share one server whose clock the earlier ones moved on: this process follows it.
test.beforeEach(({ page, baseURL }) => followServerClock(page, baseURL as string))

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`
type Order = Pick<Selectable<Database['orders']>, 'id' | 'reference' | 'status' | 'total_minor' | 'discount_minor'>

async function orderOf(db: Kysely<Database>, userId: string): Promise<Order> {
  return db
    .selectFrom('orders')
    .select(['id', 'reference', 'status', 'total_minor', 'discount_minor'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow()
}

test('a bundle is bought and one course of it refunded: that course closes, the other stays open', async ({
  page,
  db,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const base = baseURL as string
  const id = stamp()
  const creator = await createCreator(db, { plan: 'pro' })
  // $60.00 + $40.00 listed; the bundle at $70.00 splits 42.00 / 28.00 over them.
  const big = await ownedCourse(db, creator.id, 6000, `Story Bundle Big ${id}`)
  const small = await ownedCourse(db, creator.id, 4000, `Story Bundle Small ${id}`)
  const slug = `story-${id}`
  await signInAs(page, base, db, creator)
  await page.goto('/studio/bundles')
  await page.getByRole('button', { name: 'New Bundle' }).click()
  const form = page.getByRole('form', { name: 'Bundle' })
  await form.getByLabel('Title').fill(`Story Duo ${id}`)
  await form.getByLabel('Address').fill(slug)
  await form.getByLabel(new RegExp(`^${big.title}`)).check()
  await form.getByLabel(new RegExp(`^${small.title}`)).check()
  await form.getByLabel('Bundle price').fill('70.00')
  await form.getByLabel('Published (on sale)').check()
  await form.getByRole('button', { name: 'Create Bundle' }).click()
  await expect(page.getByTestId('bundle-row').filter({ hasText: `Story Duo ${id}` })).toContainText('save 30 %')

  await page.context().clearCookies()
  const buyer = await createUser(db)
  await signInAs(page, base, db, buyer)
  await page.goto(`/bundles/${slug}`)
  await page.getByRole('button', { name: 'Add Bundle to Cart' }).click()
  await expect(page.getByRole('button', { name: 'Added to cart' })).toBeVisible({ timeout: 30_000 })
  await page.goto('/cart')
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
  await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
  await page.getByRole('button', { name: 'Pay $70.00' }).click()
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible({ timeout: 30_000 })
  await expect.poll(async () => (await orderOf(db, buyer.id)).status).toBe('paid')
  const order = await orderOf(db, buyer.id)

  await page.context().clearCookies()
  await signInAs(page, base, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/orders')
  const row = page.getByTestId(`order-${order.reference}`)
  await row.getByRole('button', { name: 'Refund' }).click()
  const dialog = page.getByRole('dialog', { name: 'Refund order' })
  await dialog.getByRole('checkbox', { name: new RegExp(big.title) }).uncheck()
  await dialog.getByRole('button', { name: 'Refund 1 line(s)' }).click()
  await expect(page.getByText('Refunded $28.00')).toBeVisible({ timeout: 30_000 })

  await page.context().clearCookies()
  await signInAs(page, base, db, buyer)
  const purchase = page.getByRole('complementary', { name: 'Purchase' })
  await page.goto(`/courses/${big.id}`)
  await expect(purchase.getByRole('link', { name: 'Go to course' })).toBeVisible({ timeout: 30_000 })
  await page.goto(`/courses/${small.id}`)
  await expect(purchase.getByRole('button', { name: 'Add to Cart' })).toBeVisible({ timeout: 30_000 })
})

test('a 20 % code limited to 2 uses, a bank order that expires, and the same discounted cents everywhere', async ({
  page,
  db,
  baseURL,
}) => {
  test.setTimeout(180_000)
  const base = baseURL as string
  const id = stamp()
  const code = `STORY${id.toUpperCase()}`
  const creator = await createCreator(db, { plan: 'pro' })
  // $50.00 + $25.00 less 20 % is $40.00 + $20.00; Pro's 5 % leaves the creator $38.00 and $19.00.
  const big = await ownedCourse(db, creator.id, 5000, `Story Big ${id}`)
  const small = await ownedCourse(db, creator.id, 2500, `Story Small ${id}`)
  const admin = await createUser(db, { role: 'admin' })

  // Staff make the code in /admin/coupons.
  await signInAs(page, base, db, await createUser(db, { role: 'editor' }))
  await page.goto('/admin/coupons')
  const editor = page.getByRole('form', { name: 'New coupon' })
  await editor.getByLabel('Code').fill(code)
  await editor.getByLabel('Percent off').fill('20')
  await editor.getByLabel('Total uses (optional)').fill('2')
  await editor.getByRole('button', { name: 'Create coupon' }).click()
  await expect(page.getByTestId('coupon-row').filter({ hasText: code })).toBeVisible({ timeout: 30_000 })

  async function shopperWithCode(courseIds: string[]) {
    await page.context().clearCookies()
    const user = await createUser(db)
    await signInAs(page, base, db, user)
    for (const courseId of courseIds) {
      await db.insertInto('cart_items').values({ user_id: user.id, kind: 'course', course_id: courseId }).execute()
    }
    await page.goto('/cart')
    await page.getByRole('textbox', { name: 'Coupon code' }).fill(code.toLowerCase())
    await page.getByRole('button', { name: 'Apply code' }).click()
    return user
  }

  // Buyer 1 pays both courses by card with the code.
  const one = await shopperWithCode([big.id, small.id])
  await expect(page.getByTestId('coupon-applied')).toContainText(`Code ${code} applied`)
  await expect(page.getByTestId('discount-USD')).toContainText('$15.00')
  await expect(page.getByTestId('total-USD')).toHaveText('$60.00')
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
  await page.getByRole('radio', { name: /Credit \/ Debit Card/ }).check()
  await page.getByRole('button', { name: 'Pay $60.00' }).click()
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible({ timeout: 30_000 })
  await expect.poll(async () => (await orderOf(db, one.id)).status).toBe('paid')
  const paid = await orderOf(db, one.id)
  expect([paid.total_minor, paid.discount_minor]).toEqual([6000, 1500])

  // Buyer 2 orders by bank transfer with it (and never pays).
  const two = await shopperWithCode([big.id])
  await expect(page.getByTestId('total-USD')).toHaveText('$40.00')
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
  await page.getByRole('radio', { name: /Bank Transfer/ }).check()
  await page.getByRole('button', { name: 'Pay $40.00' }).click()
  await expect(page.getByRole('dialog', { name: 'Bank Transfer Details' })).toBeVisible({ timeout: 30_000 })
  const bank = await orderOf(db, two.id)
  expect([bank.status, bank.total_minor]).toEqual(['pending', 4000])

  // Buyer 3 is refused: used up.
  const three = await shopperWithCode([big.id])
  await expect(page.getByText('This code has been used up').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('total-USD')).toHaveText('$50.00')

  // 7 days and an hour on, the bank order has expired and its use came back: buyer 3 gets the code.
  const { now, ran } = await advanceServerClock(page, base, 7 * 86_400 + 3_600)
  expect(ran).toContain('orders.expire')
  expect((await orderOf(db, two.id)).status).toBe('expired')
  await page.context().clearCookies()
  await signInAs(page, base, db, three, now)
  await page.goto('/cart')
  await page.getByRole('textbox', { name: 'Coupon code' }).fill(code)
  await page.getByRole('button', { name: 'Apply code' }).click()
  await expect(page.getByTestId('coupon-applied')).toContainText(`Code ${code} applied`)
  await expect(page.getByTestId('total-USD')).toHaveText('$40.00')

  // Staff refund buyer 1's small course: its discounted $20.00, not its $25.00 list price.
  await page.context().clearCookies()
  await signInAs(page, base, db, admin, now)
  await page.goto('/admin/orders')
  const row = page.getByTestId(`order-${paid.reference}`)
  await row.getByRole('button', { name: 'Refund' }).click()
  const dialog = page.getByRole('dialog', { name: 'Refund order' })
  await dialog.getByRole('checkbox', { name: new RegExp(big.title) }).uncheck()
  await dialog.getByRole('button', { name: 'Refund 1 line(s)' }).click()
  await expect(page.getByText('Refunded $20.00')).toBeVisible({ timeout: 30_000 })
  await expect(row.getByText('Partially refunded')).toBeVisible({ timeout: 30_000 })

  // Buyer 1's invoice and credit note say the same.
  await page.context().clearCookies()
  await signInAs(page, base, db, one, now)
  const documents = await db
    .selectFrom('invoices')
    .select(['id', 'total_minor'])
    .where('order_id', '=', paid.id)
    .executeTakeFirstOrThrow()
  expect(documents.total_minor).toBe(6000)
  const invoice = await page.request.get(`/api/documents/invoice/${documents.id}.pdf`)
  expect(invoice.ok()).toBe(true)
  const invoiceText = pdfText(Buffer.from(await invoice.body()))
  for (const amount of ['$40.00', '$20.00', '$60.00']) expect(invoiceText).toContain(amount)
  const note = await db
    .selectFrom('credit_notes')
    .select(['id', 'total_minor'])
    .where('invoice_id', '=', documents.id)
    .executeTakeFirstOrThrow()
  expect(Math.abs(note.total_minor)).toBe(2000)
  const credit = await page.request.get(`/api/documents/credit_note/${note.id}.pdf`)
  expect(credit.ok()).toBe(true)
  expect(pdfText(Buffer.from(await credit.body()))).toContain('$20.00')

  // The creator's earnings: each sale at its discounted price less Pro's 5 %, and the refund taking back that share.
  await page.context().clearCookies()
  await signInAs(page, base, db, creator, now)
  await page.goto('/studio/earnings')
  const entries = page.getByRole('region', { name: 'Ledger entries table' })
  await expect(entries.getByRole('row', { name: new RegExp(`Sale of ${big.title}`) })).toContainText('$38.00')
  await expect(entries.getByRole('row', { name: new RegExp(`Sale of ${small.title}`) })).toContainText('$19.00')
  // The refund takes back the small course's share as stored: its discounted $20.00 less Pro's $1.00 and the part of
  // Stripe's fee it bore (decision 0047: the fee is not returned by a refund).
  const share = await db
    .selectFrom('earning_shares as s')
    .innerJoin('order_items as i', 'i.id', 's.order_item_id')
    .select(['s.net_minor', 's.platform_fee_minor', 's.processor_fee_minor'])
    .where('s.order_id', '=', paid.id)
    .where('i.course_id', '=', small.id)
    .executeTakeFirstOrThrow()
  expect([share.net_minor, share.platform_fee_minor]).toEqual([2000, 100])
  const taken = formatMoney(2000 - 100 - share.processor_fee_minor, 'USD')
  await expect(entries.getByRole('row', { name: new RegExp(`Refund of ${small.title}`) })).toContainText(`-${taken}`)
})

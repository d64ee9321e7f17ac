// Decision 0147 in the browser. Staff's coupon table says where each code stands (Active, Scheduled, Paused, Ended,
// Used up, Off), what it covers and what it asks, from the server; an end date already past is refused under the
// field. On the cart a code under its minimum names the minimum, and focus follows Apply code to Remove code and back
// to the code field. A gift's "Resend to another address" and the data export's password step keep focus on the page.
import { randomBytes } from 'node:crypto'
import { addCartItem } from '../../src-server/cart/repository.ts'
import { createFromCart } from '../../src-server/flows/cart-order.ts'
import { applyCoupon } from '../../src-server/flows/coupon-cart.ts'
import { markPaid } from '../../src-server/flows/pay-order.ts'
import { createCoupon, setCouponActive } from '../../src-server/promotions/coupons.ts'
import { createGift } from '../../src-server/promotions/gifts.ts'
import { formatMoney } from '../../src-shared/money.ts'
import { COUPON_MESSAGES } from '../../src-shared/promotions.ts'
import { couponInput } from '../../src-shared/schemas/promotions.ts'
import { createCreator, lapsePlan } from '../support/creator-courses.ts'
import { ownedCourse } from '../support/earnings.ts'
import { createUser } from '../support/factories.ts'
import { placeOrder } from '../support/orders.ts'
import { expect, test } from './fixtures.ts'

const unique = (prefix: string) => `${prefix}${randomBytes(3).toString('hex').toUpperCase()}`
const HOUR = 3_600_000

test('the coupon table says where each code stands, what it covers and asks; a past end date is refused', async ({
  page,
  login,
  db,
}) => {
  test.setTimeout(90_000)
  const editorUser = await login({ role: 'editor' })
  const creator = await createCreator(db, { plan: 'pro', firstName: 'Tamsin' })
  const course = await ownedCourse(db, creator.id, 5_000, `Status Course ${randomBytes(3).toString('hex')}`)
  const make = async (prefix: string, input: Record<string, unknown>, by = editorUser.id) => {
    const code = unique(prefix)
    const parsed = couponInput.parse({ code, kind: 'percent', percentOff: 10, appliesTo: 'everything', ...input })
    return { code, id: (await createCoupon(db, parsed, by)).id }
  }
  const active = await make('RUN', { minAmounts: { USD: 7_500 }, firstPurchaseOnly: true })
  const later = await make('LATER', { startsAt: new Date(Date.now() + 48 * HOUR).toISOString() })
  const ended = await make('ENDED', { endsAt: new Date(Date.now() + HOUR).toISOString() })
  await db
    .updateTable('coupons')
    .set({ ends_at: new Date(Date.now() - HOUR) })
    .where('id', '=', ended.id)
    .execute()
  const once = await make('ONCE', { maxUses: 1, appliesTo: 'courses', courseIds: [course.id] })
  const buyer = await createUser(db)
  await addCartItem(db, buyer.id, { kind: 'course', courseId: course.id })
  await applyCoupon(db, buyer.id, once.code)
  await createFromCart(db, { userId: buyer.id, currency: 'USD', method: 'bank_transfer', referencePrefix: 'SF' })
  const off = await make('OFF', {})
  await setCouponActive(db, off.id, false)
  const paused = await make('PAUSED', { appliesTo: 'creator', creatorId: creator.id }, creator.id)
  await lapsePlan(db, creator.id)

  await page.goto('/admin/coupons')
  const row = (code: string) => page.getByTestId('coupon-row').filter({ hasText: code })
  const statusOf = (code: string) => row(code).getByTestId('coupon-status')
  await expect(statusOf(active.code)).toHaveText('Active')
  await expect(statusOf(later.code)).toHaveText('Scheduled')
  await expect(statusOf(ended.code)).toHaveText('Ended')
  await expect(statusOf(once.code)).toHaveText('Used up')
  await expect(statusOf(off.code)).toHaveText('Off')
  await expect(statusOf(paused.code)).toHaveText('Paused')
  await expect(row(active.code).getByTestId('coupon-conditions')).toHaveText(
    `Minimum cart ${formatMoney(7_500, 'USD')} · First purchase only`,
  )
  await expect(row(once.code).getByTestId('coupon-covers')).toHaveText(course.title)
  await expect(row(paused.code).getByTestId('coupon-covers')).toHaveText(`All courses by Tamsin ${creator.lastName}`)

  // An end already past is refused under its field, and nothing is made.
  const editor = page.getByRole('form', { name: 'New coupon' })
  const refused = unique('PAST')
  await editor.getByLabel('Code').fill(refused)
  await editor.getByLabel('Percent off').fill('10')
  await editor.getByLabel('Ends (optional)').fill('2020-01-01T10:00')
  await editor.getByRole('button', { name: 'Create coupon' }).click()
  await expect(editor.getByText(COUPON_MESSAGES.endsInPast)).toBeVisible()
  await expect(editor.getByLabel('Ends (optional)')).toHaveAccessibleDescription(
    new RegExp(COUPON_MESSAGES.endsInPast.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
  )
  expect(await db.selectFrom('coupons').select('id').where('code', '=', refused).execute()).toEqual([])
})

test('on the cart: the minimum is named, and focus goes to Remove code after Apply and back after Remove', async ({
  page,
  login,
  db,
}) => {
  const staff = await createUser(db, { role: 'editor' })
  const seller = await createUser(db)
  const course = await ownedCourse(db, seller.id, 4_000, `Cart Focus Course ${randomBytes(3).toString('hex')}`)
  const make = async (prefix: string, input: Record<string, unknown>) => {
    const code = unique(prefix)
    await createCoupon(
      db,
      couponInput.parse({ code, kind: 'percent', percentOff: 10, appliesTo: 'everything', ...input }),
      staff.id,
    )
    return code
  }
  const needsMore = await make('MIN', { minAmounts: { USD: 7_500 } })
  const fits = await make('FITS', {})
  const user = await login()
  await addCartItem(db, user.id, { kind: 'course', courseId: course.id })
  await page.goto('/cart')

  const field = page.getByRole('textbox', { name: 'Coupon code' })
  await field.fill(needsMore)
  await field.press('Enter')
  // Said under the field (its description), naming the minimum.
  await expect(field).toHaveAccessibleDescription(`This code needs a cart of at least ${formatMoney(7_500, 'USD')}`)

  // With the keyboard: Apply code replaces the form with the applied code; focus moves to its Remove code button.
  await field.fill(fits)
  await field.press('Enter')
  const applied = page.getByTestId('coupon-applied')
  await expect(applied).toContainText(`Code ${fits} applied`)
  await expect(applied.getByRole('button', { name: 'Remove code' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(field).toBeVisible()
  await expect(field).toBeFocused()
})

test('a gift resent to another address: focus goes to the field, back to the button on Cancel, to the row once sent', async ({
  page,
  login,
  db,
  baseURL,
}) => {
  const giver = await login({ firstName: 'Gia', lastName: 'Focus' })
  const course = await db
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('status', '=', 'published')
    .where('price_minor', '>', 0)
    .where('currency', '=', 'USD')
    .orderBy('id')
    .executeTakeFirstOrThrow()
  const orderId = await placeOrder(db, {
    userId: giver.id,
    courseId: course.id,
    title: course.title,
    reference: `SF-GIFT-${randomBytes(4).toString('hex').toUpperCase()}`,
    method: 'bank_transfer',
    status: 'awaiting_transfer',
  })
  const line = await db.selectFrom('order_items').select('id').where('order_id', '=', orderId).executeTakeFirstOrThrow()
  const first = `gift-focus-${randomBytes(3).toString('hex')}@example.test`
  await createGift(db, {
    orderId,
    orderItemId: line.id,
    buyerId: giver.id,
    recipientEmail: first,
    message: '',
    sendAt: new Date(),
    linkOrigin: baseURL as string,
  })
  expect(await markPaid(db, orderId, { source: 'staff' })).toBe('fulfilled')

  await page.goto('/account')
  const row = page.getByTestId('gift-row').filter({ hasText: course.title })
  await expect(row).toContainText(`To ${first}`)
  const open = row.getByRole('button', { name: 'Resend to another address' })
  await open.focus()
  await page.keyboard.press('Enter')
  const email = row.getByLabel('Corrected email')
  await expect(email).toBeFocused()
  await row.getByRole('button', { name: 'Cancel' }).press('Enter')
  await expect(open).toBeFocused()

  await page.keyboard.press('Enter')
  const second = `gift-focus-${randomBytes(3).toString('hex')}@example.test`
  await email.fill(second)
  await email.press('Enter')
  await expect(row).toContainText(`To ${second}`)
  await expect(row).toBeFocused()
})

test('the data export password step: a refused proof focuses the password, an accepted one the button', async ({
  page,
  login,
}) => {
  const user = await login()
  await page.goto('/account/security')
  const section = page.getByRole('region', { name: 'Download my data' })
  const password = section.getByLabel('Your password')
  await password.fill('not-my-password')
  await section.getByRole('button', { name: 'Download my data' }).click()
  await expect(section.getByRole('alert')).toContainText('That password is not right.')
  await expect(password).toBeFocused()

  // Enter in the field: the field goes once the export is being prepared, and focus goes to the button saying so.
  await password.fill(user.password)
  await password.press('Enter')
  await expect(page.getByText('We are preparing your data')).toBeVisible()
  await expect(section.getByRole('button', { name: 'Being prepared…' })).toBeFocused()
})

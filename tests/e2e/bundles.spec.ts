// Bundles in the browser (issue 32): a Pro creator makes a bundle of two of their courses in the studio; a buyer
// finds it on a course page ("Save 30 %"), adds it as one cart line and pays by bank transfer; staff mark it paid and
// refund one course of it, which gives back that course's stored share only: it closes, the other stays open. A buyer
// asks for a refund of a bundle's course: the request is for the bundle, and approving gives it all back (decision
// 0149). A bundle learners bought stays (decision 0151): it can be unpublished, not deleted.
import { markPaid } from '../../src-server/flows/pay-order.ts'
import type { DB } from '../../src-server/kernel/db.ts'
import { seedBundle } from '../support/bundles.ts'
import { createCreator } from '../support/creator-courses.ts'
import { ownedCourse } from '../support/earnings.ts'
import { createUser } from '../support/factories.ts'
import { placeOrder } from '../support/orders.ts'
import { axeViolations } from './a11y.ts'
import { expect, signInAs, test } from './fixtures.ts'

/** A Pro creator and two published courses of theirs at these prices (cents), titled with a stamp of this test. */
async function proCreatorWithTwoCourses(db: DB, first: [string, number], second: [string, number]) {
  const stamp = Date.now().toString(36)
  const creator = await createCreator(db, { plan: 'pro' })
  const courses = [
    await ownedCourse(db, creator.id, first[1], `${first[0]} ${stamp}`),
    await ownedCourse(db, creator.id, second[1], `${second[0]} ${stamp}`),
  ] as const
  return { stamp, creator, courses }
}

/** The same creator's two courses ($25.00 and $20.00) in a published bundle of theirs at $39.99, `${label} ${stamp}`. */
async function proCreatorsBundleOfTwo(db: DB, label: string, first: string, second: string) {
  const made = await proCreatorWithTwoCourses(db, [first, 2500], [second, 2000])
  await seedBundle(db, {
    courseIds: made.courses.map((course) => course.id),
    priceMinor: 3999,
    title: `${label} ${made.stamp}`,
    slug: `${label.toLowerCase()}-${made.stamp}`,
    ownerId: made.creator.id,
  })
  return made
}

test('a bundle is bought and one course of it refunded', async ({ page, db, baseURL }) => {
  test.setTimeout(90_000)
  // $60.00 + $40.00 listed; the bundle at $70.00 splits 42.00 / 28.00 over them.
  const {
    stamp,
    creator,
    courses: [big, small],
  } = await proCreatorWithTwoCourses(db, ['Bundle Big', 6000], ['Bundle Small', 4000])
  const slug = `duo-${stamp}`

  // The creator makes the bundle in the studio.
  await signInAs(page, baseURL!, db, creator)
  await page.goto('/studio/bundles')
  await page.getByRole('button', { name: 'New Bundle' }).click()
  const form = page.getByRole('form', { name: 'Bundle' })
  // An empty form is refused field by field, under the fields (not the browser's bubbles), the first one focused.
  await form.getByRole('button', { name: 'Create Bundle' }).click()
  await expect(form.getByLabel('Title')).toHaveAccessibleDescription(/Please enter a title/)
  await expect(form.getByLabel('Title')).toBeFocused()
  await expect(form.getByLabel(new RegExp(`^${big.title}`))).toHaveAccessibleDescription(/at least 2 different courses/)
  await form.getByLabel('Title').fill(`Duo ${stamp}`)
  await form.getByLabel('Address').fill(slug)
  await form.getByLabel(new RegExp(`^${big.title}`)).check()
  await form.getByLabel(new RegExp(`^${small.title}`)).check()
  await expect(form.getByText('Bought one by one: $100.00')).toBeVisible()
  // A price that saves nothing is refused with the reason.
  await form.getByLabel('Bundle price').fill('100.00')
  await form.getByLabel('Published (on sale)').check()
  await form.getByRole('button', { name: 'Create Bundle' }).click()
  // The server's refusal goes under the price, which takes the focus.
  await expect(form.getByLabel('Bundle price')).toHaveAccessibleDescription(
    'The bundle price must be less than the courses’ total',
  )
  await expect(form.getByLabel('Bundle price')).toBeFocused()
  await form.getByLabel('Bundle price').fill('70.00')
  await form.getByRole('button', { name: 'Create Bundle' }).click()
  await expect(page.getByTestId('bundle-row').filter({ hasText: `Duo ${stamp}` })).toContainText('save 30 %')

  // A buyer finds it on a course page and adds it: one cart line.
  await page.context().clearCookies()
  const buyer = await createUser(db)
  await signInAs(page, baseURL!, db, buyer)
  await page.goto(`/courses/${small.id}`)
  const offer = page.getByRole('region', { name: 'Save with a bundle' })
  await expect(offer.getByTestId('bundle-saving')).toHaveText('Save 30 %')
  await offer.getByRole('link', { name: `Duo ${stamp}` }).click()
  await expect(page).toHaveURL(new RegExp(`/bundles/${slug}$`))
  await expect(page.getByTestId('bundle-course')).toHaveCount(2)
  await expect(page.getByTestId('bundle-price')).toHaveText('$70.00')
  await page.getByRole('button', { name: 'Add Bundle to Cart' }).click()
  await expect(page.getByRole('button', { name: 'Added to cart' })).toBeVisible()
  await page.goto('/cart')
  await expect(page.getByTestId('cart-item')).toHaveCount(1)
  await expect(page.getByTestId('cart-item')).toContainText(`Duo ${stamp}`)
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
  await page.getByRole('radio', { name: /Bank Transfer/ }).check()
  await page.getByRole('button', { name: 'Pay $70.00' }).click()
  const bank = page.getByRole('dialog', { name: 'Bank Transfer Details' })
  await bank.getByRole('button', { name: "I've Made the Transfer" }).click()
  await expect(page.getByText(/^Bank details saved/)).toBeVisible()
  const order = await db
    .selectFrom('orders')
    .select(['id', 'reference', 'total_minor'])
    .where('user_id', '=', buyer.id)
    .executeTakeFirstOrThrow()
  expect(order.total_minor).toBe(7000)

  // Staff confirm the transfer, then refund the small course: its share, $28.00, and nothing more.
  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/orders')
  const row = page.getByTestId(`order-${order.reference}`)
  await row.getByRole('button', { name: 'Mark paid' }).click()
  await expect(row.getByText('Paid', { exact: true })).toBeVisible()
  await row.getByRole('button', { name: 'Refund' }).click()
  const dialog = page.getByRole('dialog', { name: 'Refund order' })
  await dialog.getByRole('checkbox', { name: new RegExp(big.title) }).uncheck()
  await dialog.getByLabel('Refund reference (PayPal or bank)').fill(`BANK-BUNDLE-${stamp}`)
  await dialog.getByRole('button', { name: 'Refund 1 line(s)' }).click()
  await expect(page.getByText('Refunded $28.00')).toBeVisible()
  await expect(row.getByText('Partially refunded')).toBeVisible()

  // The buyer keeps the big course and no longer holds the small one.
  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, buyer)
  const purchase = page.getByRole('complementary', { name: 'Purchase' })
  await page.goto(`/courses/${big.id}`)
  await expect(purchase.getByRole('link', { name: 'Go to course' })).toBeVisible()
  await page.goto(`/courses/${small.id}`)
  await expect(purchase.getByRole('button', { name: 'Add to Cart' })).toBeVisible()
})

test('a bundle of courses sold in pounds is priced in pounds without changing the currency by hand', async ({
  page,
  db,
  baseURL,
}) => {
  const {
    stamp,
    creator,
    courses: [one, two],
  } = await proCreatorWithTwoCourses(db, ['Pound One', 6000], ['Pound Two', 4000])
  await db.updateTable('courses').set({ currency: 'GBP' }).where('id', 'in', [one.id, two.id]).execute()

  await signInAs(page, baseURL!, db, creator)
  await page.goto('/studio/bundles')
  await page.getByRole('button', { name: 'New Bundle' }).click()
  const form = page.getByRole('form', { name: 'Bundle' })
  await form.getByLabel('Title').fill(`Pounds ${stamp}`)
  await form.getByLabel('Address').fill(`pounds-${stamp}`)
  await form.getByLabel(new RegExp(`^${one.title}`)).check()
  await form.getByLabel(new RegExp(`^${two.title}`)).check()
  await expect(form.getByText('Bought one by one: £100.00')).toBeVisible()
  await expect(form.getByLabel('Currency')).toHaveValue('GBP')
  await form.getByLabel('Bundle price').fill('70.00')
  await form.getByRole('button', { name: 'Create Bundle' }).click()
  await expect(page.getByTestId('bundle-row').filter({ hasText: `Pounds ${stamp}` })).toContainText(
    '£70.00 instead of £100.00',
  )
})

test('the bundle form by keyboard: it opens on its Title, and Cancel gives focus back to the button that opened it', async ({
  page,
  db,
  baseURL,
}) => {
  const creator = await createCreator(db, { plan: 'pro' })
  await signInAs(page, baseURL!, db, creator)
  await page.goto('/studio/bundles')
  await page.getByRole('button', { name: 'New Bundle' }).focus()
  await page.keyboard.press('Enter')
  const form = page.getByRole('form', { name: 'Bundle' })
  await expect(form.getByLabel('Title')).toBeFocused()
  await form.getByRole('button', { name: 'Cancel' }).focus()
  await page.keyboard.press('Enter')
  await expect(form).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'New Bundle' })).toBeFocused()
})

test('a Basic creator is told bundles come with Pro, not handed a form the server refuses', async ({
  page,
  db,
  baseURL,
}) => {
  const creator = await createCreator(db, { plan: 'basic' })
  await ownedCourse(db, creator.id, 3000)
  await ownedCourse(db, creator.id, 4000)
  await signInAs(page, baseURL as string, db, creator)
  await page.goto('/studio/bundles')
  await expect(
    page.getByText('Bundles are a Pro feature: choose the Pro or Enterprise plan to sell bundles'),
  ).toBeVisible()
  await expect(page.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/pricing')
  await expect(page.getByRole('button', { name: 'New Bundle' })).toHaveCount(0)
})

test('a bundle taken off sale by a course sold only in pounds says so in the studio, with no wrong total', async ({
  page,
  db,
  baseURL,
}) => {
  const {
    stamp,
    creator,
    courses: [, moved],
  } = await proCreatorsBundleOfTwo(db, 'Off', 'Kept', 'Moved')
  // The creator now sells one course in pounds only (decision 0069): the bundle page answers 404 (decision 0042).
  await db
    .updateTable('courses')
    .set({ price_usd_minor: null, price_gbp_minor: 1800, price_minor: 1800, currency: 'GBP' })
    .where('id', '=', moved.id)
    .execute()

  await signInAs(page, baseURL!, db, creator)
  await page.goto('/studio/bundles')
  const row = page.getByTestId('bundle-row').filter({ hasText: `Off ${stamp}` })
  await expect(row.getByTestId('bundle-off-sale')).toHaveText(
    `Not on sale: “Moved ${stamp}” is not sold in USD, and every course must be sold in the bundle’s currency.`,
  )
  await expect(row).toContainText('Published · 2 courses · $39.99')
  await expect(row).not.toContainText('instead of')
  await expect(row.getByRole('link', { name: 'View' })).toHaveCount(0)
})

test('a course price that would make a bundle cost its courses’ total is refused under the price; lowered anyway, the bundle is off sale', async ({
  page,
  db,
  baseURL,
}) => {
  // Decision 0166: $25.00 + $20.00 against a $39.99 bundle.
  const {
    stamp,
    creator,
    courses: [, second],
  } = await proCreatorsBundleOfTwo(db, 'Pair', 'Dearer', 'Cheaper')
  await signInAs(page, baseURL!, db, creator)
  await page.goto(`/studio/courses/${encodeURIComponent(second.id)}`)
  const price = page.getByLabel('Price in USD ($)')
  await price.fill('14.99')
  await page.getByRole('button', { name: 'Save details' }).click()
  await expect(price).toHaveAccessibleDescription(
    new RegExp(
      `^Your bundle “Pair ${stamp}” costs \\$39\\.99, and at this price its courses would come to \\$39\\.99: a bundle must cost less than its courses\\.`,
    ),
  )
  await expect(price).toBeFocused()
  // Nothing was saved: no change waits for review.
  expect(await db.selectFrom('course_drafts').select('course_id').where('course_id', '=', second.id).execute()).toEqual(
    [],
  )

  // Staff lower the price anyway (a course edit of theirs): the bundle goes off sale, and the studio says why.
  await db
    .updateTable('courses')
    .set({ price_usd_minor: 1000, price_minor: 1000 })
    .where('id', '=', second.id)
    .execute()
  await page.goto('/studio/bundles')
  await expect(
    page
      .getByTestId('bundle-row')
      .filter({ hasText: `Pair ${stamp}` })
      .getByTestId('bundle-off-sale'),
  ).toHaveText(
    'Not on sale: its price ($39.99) is not below its courses’ total ($35.00) since a course’s price went down: lower it to sell the bundle again.',
  )
  expect((await page.request.get(`/bundles/pair-${stamp}`)).status()).toBe(404)
})

test('a buyer who owns every course of a bundle is told so, with no button the server would refuse', async ({
  page,
  db,
  baseURL,
}) => {
  const { courses: held } = await proCreatorWithTwoCourses(db, ['Held One', 3000], ['Held Two', 2000])
  const bundle = await seedBundle(db, { courseIds: held.map((course) => course.id), priceMinor: 4000 })
  const buyer = await createUser(db)
  await db
    .insertInto('access_grants')
    .values(
      held.map((course) => ({
        user_id: buyer.id,
        kind: 'course' as const,
        course_id: course.id,
        source: 'staff' as const,
        starts_at: new Date(Date.now() - 60_000),
      })),
    )
    .execute()
  await signInAs(page, baseURL!, db, buyer)
  await page.goto(`/bundles/${bundle.slug}`)
  const aside = page.getByRole('complementary', { name: 'Buy this bundle' })
  await expect(aside.getByTestId('bundle-owned')).toContainText('You own every course in this bundle.')
  await expect(aside.getByRole('link', { name: 'Find them in My Courses' })).toHaveAttribute(
    'href',
    '/account#my-courses',
  )
  await expect(aside.getByRole('button')).toHaveCount(0)
})

test('a buyer asks for a refund of a course bought in a bundle: one request for the bundle, approved by staff', async ({
  page,
  db,
  baseURL,
}) => {
  const {
    stamp,
    courses: [first, second],
  } = await proCreatorWithTwoCourses(db, ['Asked One', 6000], ['Asked Two', 4000])
  const title = `Asked Bundle ${stamp}`
  const bundle = await seedBundle(db, { courseIds: [first.id, second.id], priceMinor: 7000, title })
  const buyer = await createUser(db)
  const reference = `SF-BR-${stamp.toUpperCase()}`
  // Sold at $70.00: shares $42.00 and $28.00, paid by bank transfer and confirmed (the server's own payment path).
  const orderId = await placeOrder(db, {
    userId: buyer.id,
    reference,
    courses: [
      { ...first, price_minor: 4200 },
      { ...second, price_minor: 2800 },
    ],
    bundle: { id: bundle.id, title },
    method: 'bank_transfer',
    status: 'awaiting_transfer',
  })
  expect(await markPaid(db, orderId, { source: 'staff' })).toBe('fulfilled')

  await signInAs(page, baseURL!, db, buyer)
  await page.goto('/account')
  const order = page.getByTestId(`buyer-order-${reference}`)
  // One request for the bundle, not one a course.
  await expect(order.getByRole('button', { name: 'Request a refund', exact: true })).toHaveCount(0)
  await order.getByRole('button', { name: 'Request a refund of the bundle' }).click()
  const reason = order.getByLabel(`Why would you like a refund of the bundle “${title}”?`)
  await expect(reason).toBeFocused()
  await expect(reason).toHaveAccessibleDescription(
    'The refund covers every course of the bundle still in your account.',
  )
  // At a phone's width too, the form and its hint fit and read.
  await page.setViewportSize({ width: 390, height: 844 })
  const box = await order.boundingBox()
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390)
  expect(await axeViolations(page)).toEqual([])
  await page.setViewportSize({ width: 1280, height: 720 })
  await reason.fill('Neither course was what I expected')
  await order.getByRole('button', { name: 'Send refund request' }).click()
  await expect(page.getByText('Refund requested. We will reply by e-mail.')).toBeVisible()
  await expect(order.getByText('Refund requested')).toHaveCount(2)

  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, await createUser(db, { role: 'admin' }))
  await page.goto('/admin/orders')
  const request = page.getByTestId(`refund-request-${reference}`)
  await expect(request).toContainText(`Bundle “${title}” ($70.00)`)
  await expect(request.getByTestId('refund-request-bundle')).toContainText(first.title)
  await expect(request.getByTestId('refund-request-bundle')).toContainText(second.title)
  expect(await axeViolations(page)).toEqual([])
  await request.getByRole('button', { name: 'Approve' }).click()
  await request.getByLabel('Refund reference (PayPal or bank)').fill(`BANK-BR-${stamp}`)
  await request.getByRole('button', { name: 'Approve and refund' }).click()
  await expect(page.getByText('Refund approved')).toBeVisible()
  await expect(page.getByTestId(`order-${reference}`).getByText('Refunded', { exact: true })).toBeVisible()

  await page.context().clearCookies()
  await signInAs(page, baseURL!, db, buyer)
  await page.goto('/account')
  // Both courses read as refunded, and so does the order: the bundle was all of it.
  await expect(order.getByRole('listitem').getByText('Refunded', { exact: true })).toHaveCount(2)
  await expect(order.getByTestId('order-status')).toHaveText('Refunded')
  await expect(order.getByText('Refunded $70.00')).toBeVisible()
})

test('a bundle learners bought can be unpublished, not deleted; one nobody bought is deleted', async ({
  page,
  db,
  baseURL,
}) => {
  const {
    stamp,
    creator,
    courses: [first, second],
  } = await proCreatorWithTwoCourses(db, ['Kept A', 3000], ['Kept B', 2000])
  const bundleOf = (title: string) =>
    seedBundle(db, { courseIds: [first.id, second.id], priceMinor: 4000, ownerId: creator.id, title })
  const sold = await bundleOf(`Bought bundle ${stamp}`)
  await bundleOf(`Spare bundle ${stamp}`)
  await placeOrder(db, {
    userId: (await createUser(db)).id,
    reference: `SF-KEPT-${stamp}`,
    bundle: { id: sold.id, title: `Bought bundle ${stamp}` },
    courses: [
      { id: first.id, title: first.title, price_minor: 2400 },
      { id: second.id, title: second.title, price_minor: 1600 },
    ],
  })

  await signInAs(page, baseURL!, db, creator)
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/studio/bundles')
  const bought = page.getByTestId('bundle-row').filter({ hasText: `Bought bundle ${stamp}` })
  await expect(bought).toContainText('Bought by learners: it can be unpublished, not deleted.')
  await expect(bought.getByRole('button', { name: /^Delete/ })).toHaveCount(0)
  await expect(bought.getByRole('button', { name: `Edit Bought bundle ${stamp}` })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])

  const spare = page.getByTestId('bundle-row').filter({ hasText: `Spare bundle ${stamp}` })
  await expect(spare).not.toContainText('Bought by learners')
  page.once('dialog', (dialog) => dialog.accept())
  await spare.getByRole('button', { name: `Delete Spare bundle ${stamp}` }).click()
  await expect(page.getByText('Bundle deleted')).toBeVisible()
  await expect(spare).toHaveCount(0)
  await expect(bought).toBeVisible()
})

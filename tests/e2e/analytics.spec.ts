// A creator's analytics in the browser (issue 35's "Done when"): a Pro creator's course of four lessons (the first a
// video) is bought by three learners through the shop's own cart and payment path; staff refund one sale in
// /admin/orders with a note; two learners make progress through the player's procedures (one watches 35 s of the
// video and completes every lesson, one watches 12 s and completes one lesson); the analytics job refreshes the
// course's snapshot. The studio's tables then read exactly the expected figures (revenue, net, refunds and their
// reason, completion, drop-off bucket), and staff see the same sale in /admin/analytics.
import { refreshCourseStats } from '../../src-server/analytics/progress.ts'
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { buyerOfCourse, lessonsOf } from '../support/learning.ts'
import { shopCaller } from '../support/shop.ts'
import { expect, signInAs, test } from './fixtures.ts'

test("a creator's numbers after sales, a refund and progress equal the expected table; staff see the same sales", async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const title = `Analytics Course ${Date.now().toString(36)}`
  const creator = await createCreator(db, { plan: 'pro' })
  const course = await createCreatorCourse(db, creator, { title, status: 'published', lessons: 4 })
  const lessons = await lessonsOf(db, course.id)
  const [video, second, third, fourth] = lessons.map((lesson) => lesson.id) as [string, string, string, string]
  await db.updateTable('lessons').set({ kind: 'video', duration_seconds: 600 }).where('id', '=', video).execute()

  // Three sales at $49.00 (Pro's platform fee: 5 %, $2.45 each).
  const [a, b, c] = [
    await buyerOfCourse(db, course.id),
    await buyerOfCourse(db, course.id),
    await buyerOfCourse(db, course.id),
  ]
  const refunded = await db
    .selectFrom('orders')
    .select('reference')
    .where('id', '=', c.orderId)
    .executeTakeFirstOrThrow()

  // Progress, as the player saves it.
  const learnerA = await shopCaller(db, a.user)
  await learnerA.learning.saveProgress({
    courseId: course.id,
    lessonId: video,
    positionSeconds: 35,
    ranges: [[0, 35]],
    sentAt: Date.now(),
  })
  for (const lessonId of [video, second, third, fourth]) {
    await learnerA.learning.setCompleted({ courseId: course.id, lessonId, completed: true })
  }
  const learnerB = await shopCaller(db, b.user)
  await learnerB.learning.saveProgress({
    courseId: course.id,
    lessonId: video,
    positionSeconds: 12,
    ranges: [[0, 12]],
    sentAt: Date.now(),
  })
  await learnerB.learning.setCompleted({ courseId: course.id, lessonId: second, completed: true })

  // Staff refund the third sale, with a note.
  const staffContext = await browser.newContext({ baseURL })
  const staff = await staffContext.newPage()
  await signInAs(staff, baseURL as string, db, await createUser(db, { role: 'admin' }))
  await staff.goto('/admin/orders')
  const row = staff.getByTestId(`order-${refunded.reference}`)
  await row.getByRole('button', { name: 'Refund' }).click()
  const dialog = staff.getByRole('dialog', { name: 'Refund order' })
  await dialog.getByLabel('Refund reference (PayPal or bank)').fill('BANK-ANALYTICS-1')
  await dialog.getByLabel('Note (optional)').fill('Bought the wrong course')
  await dialog.getByRole('button', { name: 'Refund whole order' }).click()
  await expect(row.getByText('Refunded', { exact: true })).toBeVisible()

  // The hourly job's refresh of the course's learner snapshot.
  await refreshCourseStats(db, [course.id])

  // A visitor (a browser, not a headless one's agent) reaches the course page from a search result: a view counted
  // under search.
  const visitor = await browser.newContext({
    baseURL,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  })
  const visit = await visitor.newPage()
  const beacon = visit.waitForResponse((response) => response.url().includes('analytics.courseViewed'))
  await visit.goto(`/courses/${course.id}?from=search`)
  expect((await beacon).ok()).toBe(true)
  await visitor.close()

  const today = new Date().toISOString().slice(0, 10)
  const range = `from=${today}&to=${today}&granularity=day`
  await signInAs(page, baseURL as string, db, creator)
  await page.goto(`/studio/analytics?${range}`)
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible()

  // Revenue: gross $147.00, refunds $49.00, fee 3 × $2.45 − $2.45 returned = $4.90, net $93.10.
  const revenue = page.getByRole('region', { name: 'Revenue in USD: table' })
  await expect(revenue.getByRole('row')).toHaveText([
    ['Period', 'Gross', 'Discounts', 'Refunds', 'Platform fee', 'Net'].join(''),
    [today, '$147.00', '$0.00', '$49.00', '$4.90', '$93.10'].join(''),
  ])
  const units = page.getByRole('region', { name: 'Units sold in USD: table' })
  await expect(units.getByRole('row').nth(1)).toHaveText([today, '3', '1'].join(''))
  // Views by channel, beside units by channel: the one view came from search.
  const views = page.getByRole('region', { name: 'Views by channel: table' })
  await expect(views.getByRole('row')).toHaveText([['Period', 'Direct', 'Search', 'Catalogue'].join(''), `${today}010`])
  await expect(page.getByTestId('views-channels-totals')).toHaveText('0 direct, 1 from search, 0 from the catalogue')
  const totals = page.getByTestId('totals-USD')
  await expect(totals).toContainText('Net (USD)$93.10')
  // Net here leaves card fees in (the ledger takes them off): the page says so rather than disagree with Earnings.
  await expect(page.getByTestId('net-basis')).toContainText('before card processing fees')
  await expect(page.getByTestId('courses-table').getByRole('row', { name: title })).toHaveText(
    [title, 'USD', '3', '$147.00', '$49.00', '$93.10'].join(''),
  )

  // The refund under staff's note.
  await expect(page.getByTestId('refund-reasons-table').getByRole('row')).toHaveText([
    'ReasonCurrencyRefundsAmount',
    'Bought the wrong courseUSD1$49.00',
  ])

  // Completion: two started; A completed every lesson, B one of four (25 %).
  await expect(page.getByTestId('learners-table').getByRole('row', { name: title })).toHaveText(
    [title, '2', '2', '1', '1', '1'].join(''),
  )
  // Lessons and where viewers stopped: A at 0:35 (the 0:30–0:40 bucket), B at 0:12 (0:10–0:20).
  const lessonTable = page.getByTestId('lessons-table')
  await expect(lessonTable.getByRole('row', { name: 'Lesson 1' })).toHaveText('Lesson 12100 %1—')
  await expect(lessonTable.getByRole('row', { name: 'Lesson 3' })).toHaveText('Lesson 3150 %1—')
  const stops = page.getByRole('region', { name: 'Where viewers stopped: Lesson 1: table' })
  await expect(stops.getByRole('row')).toHaveText([
    'Stopped betweenViewers',
    '0:00–0:100',
    '0:10–0:201',
    '0:20–0:300',
    '0:30–0:401',
  ])

  // Staff: the same sale in the shop-wide view.
  await staff.goto(`/admin/analytics?${range}`)
  await expect(staff.getByTestId('courses-table').getByRole('row', { name: title })).toHaveText(
    [title, 'USD', '3', '$147.00', '$49.00', '$93.10'].join(''),
  )
  // Staff only: plans, services and creators, each with its figures and the tables behind its charts (this shop's
  // other specs sell too, so their exact figures are the integration test's: analytics-staff.test.ts).
  for (const name of ['Plans', 'Services', 'Creators']) {
    await expect(staff.getByRole('heading', { level: 2, name, exact: true })).toBeVisible()
  }
  await expect(staff.getByTestId('plans-figures')).toContainText('Trials converted')
  await expect(staff.getByRole('region', { name: 'Service orders, deliveries and overdue: table' })).toBeVisible()
  await expect(staff.getByTestId('top-creators-table').getByRole('row').first()).toHaveText(
    'CreatorCurrencySalesNet earnings',
  )
  await staffContext.close()
})

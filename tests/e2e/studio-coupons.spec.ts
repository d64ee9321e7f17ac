// A creator's coupons in the studio: a Pro creator makes a code for one of their courses, turns it off and on again
// from the table (the table offers Enable on a disabled code, so the studio must honour it); and a code for all their
// courses, which the schema asks a creator for (the studio names the signed-in one).
import { randomBytes } from 'node:crypto'
import { NO_CONNECTION } from '../../src-shared/outage.ts'
import { createCreator, lapsePlan } from '../support/creator-courses.ts'
import { ownedCourse } from '../support/earnings.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('a creator disables their coupon and enables it again', async ({ page, db, baseURL }) => {
  const creator = await createCreator(db, { plan: 'pro' })
  const course = await ownedCourse(db, creator.id, 4999, `Coupon Course ${randomBytes(3).toString('hex')}`)
  const code = `STU${randomBytes(3).toString('hex').toUpperCase()}`
  await signInAs(page, baseURL as string, db, creator)

  await page.goto('/studio/coupons')
  const editor = page.getByRole('form', { name: 'New coupon' })
  await editor.getByLabel('Code').fill(code)
  await editor.getByLabel('Percent off').fill('10')
  await editor.getByLabel(course.title).check()
  await editor.getByRole('button', { name: 'Create coupon' }).click()
  const row = page.getByTestId('coupon-row').filter({ hasText: code })
  await expect(row).toContainText('Active')

  // With the keyboard: the button keeps focus while it turns into Enable (it never drops to the page).
  await row.getByRole('button', { name: `Disable ${code}` }).focus()
  await page.keyboard.press('Enter')
  await expect(row).toContainText('Off')
  await expect(row.getByRole('button', { name: `Enable ${code}` })).toBeFocused()
  await row.getByRole('button', { name: `Enable ${code}` }).click()
  await expect(row).toContainText('Active')
  const stored = await db.selectFrom('coupons').select('active').where('code', '=', code).executeTakeFirstOrThrow()
  expect(stored.active).toBe(true)

  // The plan lapses: the code is not offered to buyers, and its row says Paused, not Active.
  await lapsePlan(db, creator.id)
  await page.reload()
  await expect(page.getByText('Your codes below are paused')).toBeVisible()
  await expect(row.getByText('Paused', { exact: true })).toBeVisible()
  await expect(row).not.toContainText('Active')
})

test('a creator makes a code for all their courses, offered as “All your courses”', async ({ page, db, baseURL }) => {
  const creator = await createCreator(db, { plan: 'pro' })
  const code = `ALL${randomBytes(3).toString('hex').toUpperCase()}`
  await signInAs(page, baseURL as string, db, creator)

  await page.goto('/studio/coupons')
  const editor = page.getByRole('form', { name: 'New coupon' })
  await editor.getByLabel('Code').fill(code)
  await editor.getByLabel('Percent off').fill('15')
  await editor.getByLabel('Applies to').selectOption({ label: 'All your courses' })
  await editor.getByRole('button', { name: 'Create coupon' }).click()
  await expect(page.getByTestId('coupon-row').filter({ hasText: code })).toContainText('Active')
  const stored = await db
    .selectFrom('coupons')
    .select(['applies_to', 'creator_id'])
    .where('code', '=', code)
    .executeTakeFirstOrThrow()
  expect(stored).toEqual({ applies_to: 'creator', creator_id: creator.id })
})

// The server goes away while the studio is open, and the creator opens pages not visited yet: their code cannot be
// fetched. The router's own lazy loader reloaded the page then (meant for a deploy that replaced the chunk), which
// with no server ends on the browser's error page (chrome-error://chromewebdata/); the app says it cannot reach the
// server instead, and Try Again opens the page once the server answers (lib/lazy-route.ts).
test('with the server out of reach, a studio page not yet loaded says so; Try Again opens it when back', async ({
  page,
  db,
  baseURL,
}) => {
  const creator = await createCreator(db, { plan: 'pro' })
  await signInAs(page, baseURL as string, db, creator)
  await page.goto('/studio')
  const studioNav = page.getByRole('navigation', { name: 'Studio' })
  await expect(studioNav.getByRole('link', { name: 'Coupons' })).toBeVisible()
  const serverDown = async () =>
    page.route(
      (url) => url.origin === new URL(baseURL as string).origin,
      (route) => route.abort('connectionrefused'),
    )

  // A page whose data the loader does not wait for: only its code is missing.
  await page.evaluate(() => {
    ;(window as { sameDocument?: boolean }).sameDocument = true
  })
  await serverDown()
  await studioNav.getByRole('link', { name: 'Uploads' }).click()
  await expect(page.getByText(NO_CONNECTION)).toBeVisible()
  expect(page.url()).toBe(`${baseURL}/studio/uploads`)
  await expect(studioNav).toBeVisible()
  // Said by the page as it was: no reload was tried (with no server it ends on the browser's error page).
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true)
  await page.unrouteAll({ behavior: 'wait' })
  await page.getByRole('button', { name: 'Try Again' }).click()
  await expect(page.getByRole('heading', { name: 'My video uploads' })).toBeVisible()

  // A page whose loader fails too: its error screen comes with the route, not from the server.
  await serverDown()
  await studioNav.getByRole('link', { name: 'Coupons' }).click()
  await expect(page.getByText(NO_CONNECTION)).toBeVisible()
  expect(page.url()).toBe(`${baseURL}/studio/coupons`)
  await page.unrouteAll({ behavior: 'wait' })
  await page.getByRole('button', { name: 'Try Again' }).click()
  await expect(page.getByRole('heading', { name: 'Coupons' })).toBeVisible()
  expect(page.url()).toBe(`${baseURL}/studio/coupons`)
})

// A page's chunk that cannot be fetched while the server answers is a page older than the deploy that replaced it:
// the page is loaded again, once, as the router did before (lib/lazy-route.ts asks the server first).
test('a studio page whose chunk is gone while the server answers reloads once and opens', async ({
  page,
  db,
  baseURL,
}) => {
  const creator = await createCreator(db, { plan: 'pro' })
  await signInAs(page, baseURL as string, db, creator)
  await page.goto('/studio')
  const studioNav = page.getByRole('navigation', { name: 'Studio' })
  await expect(studioNav.getByRole('link', { name: 'Payouts' })).toBeVisible()
  await page.evaluate(() => {
    ;(window as { sameDocument?: boolean }).sameDocument = true
  })
  // The first script asked for from here is the page's own chunk: gone (404), as after a deploy, until the page loads
  // again.
  let gone: string | undefined
  let reloaded = false
  page.on('domcontentloaded', () => {
    reloaded = true
  })
  await page.route(
    (url) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js'),
    (route) => {
      const url = route.request().url()
      if (reloaded || (gone !== undefined && gone !== url)) return route.continue()
      gone = url
      return route.fulfill({ status: 404, body: 'Not found' })
    },
  )
  await studioNav.getByRole('link', { name: 'Payouts' }).click()
  await expect(page.getByRole('heading', { name: 'Payouts' })).toBeVisible()
  expect(page.url()).toBe(`${baseURL}/studio/payouts`)
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBeUndefined()
})

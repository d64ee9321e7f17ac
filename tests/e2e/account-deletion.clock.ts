// The cool-off in the browser (issue 28): a customer with a paid order deletes their account; the server's clock
// moves 14 days (TEST_CLOCK) and the deletion job runs; the log-in then refuses them, their session is gone, and
// their invoice is exactly as issued.
import { AUTH_MESSAGES } from '../../src-shared/auth.ts'
import { ownedCourse, sell } from '../support/earnings.ts'
import { createUser } from '../support/factories.ts'
import { advanceServerClock, expect, followServerClock, signInAs, test } from './fixtures.ts'

// The clock specs share one server whose clock the earlier ones moved on: this process follows it.
test.beforeEach(({ page, baseURL }) => followServerClock(page, baseURL as string))

test('after the 14-day cool-off the account can no longer sign in', async ({ page, db, baseURL }) => {
  const seller = await createUser(db)
  const course = await ownedCourse(db, seller.id, 1500, `Deletion Course ${Date.now().toString(36)}`)
  const { buyer } = await sell(db, [course])
  const invoiceBefore = await db.selectFrom('invoices').selectAll().where('user_id', '=', buyer.id).execute()
  await signInAs(page, baseURL as string, db, buyer)
  await page.goto('/account/security')
  const section = page.getByRole('region', { name: 'Delete my account' })
  await section.getByLabel('Your password').fill(buyer.password)
  await section.getByRole('button', { name: 'Delete my account' }).click()
  await expect(section.getByText(/Your account will be deleted on/)).toBeVisible()

  const { ran } = await advanceServerClock(page, baseURL as string, 14 * 24 * 3600 + 3600)
  expect(ran).toContain('privacy.account-deletions')
  await expect
    .poll(
      async () =>
        (
          await db
            .selectFrom('account_deletions')
            .select('erased_at')
            .where('user_id', '=', buyer.id)
            .executeTakeFirst()
        )?.erased_at ?? null,
    )
    .not.toBeNull()

  await page.goto('/account/security')
  await expect(page).toHaveURL(/\/login/)
  await page.getByLabel('Email').fill(buyer.email)
  await page.getByLabel('Password', { exact: true }).fill(buyer.password)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByText(AUTH_MESSAGES.invalidCredentials).first()).toBeVisible()
  expect(await db.selectFrom('invoices').selectAll().where('user_id', '=', buyer.id).execute()).toEqual(invoiceBefore)
})

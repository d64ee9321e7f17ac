// "Delete my account" in the browser (issue 28): a customer confirms with their password, the page shows the date;
// signing in again during the cool-off lands on Account → Security, which offers Cancel deletion, and cancelling
// keeps the account. A creator is told first what the erasure does to the courses they teach.
import { ownedCourse } from '../support/earnings.ts'
import { createUser } from '../support/factories.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('a customer asks to delete their account, signs in again and cancels', async ({ page, db, baseURL }) => {
  const person = await createUser(db)
  await signInAs(page, baseURL as string, db, person)
  await page.goto('/account/security')
  const section = page.getByRole('region', { name: 'Delete my account' })
  await section.getByLabel('Your password').fill(person.password)
  await section.getByRole('button', { name: 'Delete my account' }).click()
  await expect(section.getByText(/Your account will be deleted on/)).toBeVisible()
  // The button pressed is gone: focus goes to the one that undoes it.
  await expect(section.getByRole('button', { name: 'Cancel deletion' })).toBeFocused()

  await page.context().clearCookies()
  await page.goto('/login')
  await page.getByLabel('Email').fill(person.email)
  await page.getByLabel('Password', { exact: true }).fill(person.password)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(/\/account\/security$/)
  await expect(page.getByText('Your account is scheduled for deletion')).toBeVisible()
  await section.getByRole('button', { name: 'Cancel deletion' }).click()
  await expect(page.getByText('Deletion cancelled')).toBeVisible()
  await expect(section.getByRole('button', { name: 'Delete my account' })).toBeVisible()
  await expect(section.getByLabel('Your password')).toBeFocused()
  const row = await db.selectFrom('account_deletions').select('user_id').where('user_id', '=', person.id).execute()
  expect(row).toEqual([])
})

test('a creator is told, before confirming, that their course leaves the shop and its learners keep it', async ({
  page,
  db,
  baseURL,
}) => {
  const creator = await createUser(db)
  await ownedCourse(db, creator.id, 1900, 'Leaving Course')
  await signInAs(page, baseURL as string, db, creator)
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/account/security')
  const section = page.getByRole('region', { name: 'Delete my account' })
  const consequences = section.getByRole('list', { name: 'What deleting your account does' })
  await expect(consequences.getByRole('listitem')).toHaveText([
    'Your course is taken off sale. Learners who hold it keep it.',
    'Minutes Premium members watch this month earn you no share of the Premium pool.',
  ])
  // Confirming by keyboard, then the course leaves the shop when the account is erased (integration tests).
  await section.getByLabel('Your password').fill(creator.password)
  await section.getByLabel('Your password').press('Enter')
  await expect(section.getByText(/Your account will be deleted on/)).toBeVisible()
})

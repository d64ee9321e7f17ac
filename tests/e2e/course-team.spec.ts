// The owner's team panel on the publish page (issues 30 and 31): invite a co-instructor by e-mail, and set how the
// course's earnings are split between the owner and a co-instructor who accepted; a table that does not add up to
// 100 % cannot be saved.
import { addCoInstructor } from '../../src-server/creators/course-instructors.ts'
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('the owner invites a co-instructor and splits the course’s earnings 70/30', async ({ page, db, baseURL }) => {
  const owner = await createCreator(db, { plan: 'pro' })
  const { id: courseId } = await createCreatorCourse(db, owner, { status: 'published' })
  const co = await createUser(db, { firstName: 'Ciara', lastName: 'Co' })
  await addCoInstructor(db, courseId, co.id)
  await signInAs(page, baseURL as string, db, owner)

  await page.goto(`/studio/courses/${courseId}/publish`)
  const team = page.getByRole('region', { name: 'Team' })
  await expect(team.getByTestId('team-members')).toContainText(co.email)

  // Invite another person by e-mail: listed as invited.
  const invitee = `invitee-${Date.now().toString(36)}@example.com`
  await team.getByLabel('Invite by e-mail').fill(invitee)
  await team.getByRole('button', { name: 'Send invitation' }).click()
  await expect(team.getByTestId('team-members')).toContainText(invitee)

  // The shares: 100 / 0 to start; 70 / 20 does not add up and cannot be saved; 70 / 30 does.
  const ownerShare = team.getByLabel('You (owner) (%)')
  const coShare = team.getByLabel('Ciara Co (%)')
  await expect(ownerShare).toHaveValue('100')
  await ownerShare.fill('70')
  await coShare.fill('20')
  await expect(team.getByTestId('shares-total')).toHaveText('Total: 90 %')
  await expect(team.getByText('The shares must add up to exactly 100 %.')).toBeVisible()
  await expect(team.getByRole('button', { name: 'Save shares' })).toBeDisabled()
  await coShare.fill('30')
  await team.getByRole('button', { name: 'Save shares' }).click()
  await expect(page.getByText('Shares saved')).toBeVisible()

  const rows = await db
    .selectFrom('course_instructors')
    .select(['user_id', 'share_basis_points'])
    .where('course_id', '=', courseId)
    .execute()
  expect(Object.fromEntries(rows.map((row) => [row.user_id, row.share_basis_points]))).toEqual({
    [owner.id]: 7000,
    [co.id]: 3000,
  })
  await page.reload()
  await expect(team.getByLabel('Ciara Co (%)')).toHaveValue('30')
})

test('on Basic the team panel says there are no co-instructors and offers Pro, before an address is typed', async ({
  page,
  db,
  baseURL,
}) => {
  const owner = await createCreator(db, { plan: 'basic' })
  const { id: courseId } = await createCreatorCourse(db, owner, { status: 'published' })
  await signInAs(page, baseURL as string, db, owner)
  await page.goto(`/studio/courses/${courseId}/publish`)
  const team = page.getByRole('region', { name: 'Team' })
  // Before, it read "Your team: 0 of 0 people across your courses." and sent the invitation to be refused.
  await expect(team.getByTestId('team-upgrade')).toHaveText(
    'Your Basic plan has no co-instructors: upgrade to Pro to invite up to 3 people.',
  )
  await expect(team).not.toContainText('0 of 0')
  await expect(team.getByRole('link', { name: 'upgrade to Pro' })).toHaveAttribute('href', '/pricing')
  await team.getByLabel('Invite by e-mail').fill('someone@example.com')
  await expect(team.getByRole('button', { name: 'Send invitation' })).toBeDisabled()
})

// Studio controls whose save is running stay where the keyboard is: aria-disabled (whilePending), not disabled,
// which would drop the focus to the page while the request is out. Each save is held back a moment so the check
// sees the control during the save, then after it.
import type { Page } from '@playwright/test'
import { putSchoolMember } from '../../src-server/creators/school-team.ts'
import { ensureSchool } from '../../src-server/creators/schools.ts'
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { expect, signInAs, test } from './fixtures.ts'
import { pressWhileBusy, slow } from './hold-request.ts'

/** An Enterprise creator on the webhooks page, the add form filled in with a local URL and `description`. */
async function filledEndpointForm(
  page: Page,
  db: Parameters<typeof createCreator>[0],
  baseURL: string,
  description: string,
) {
  const owner = await createCreator(db, { plan: 'enterprise' })
  await signInAs(page, baseURL, db, owner)
  await page.goto('/studio/webhooks')
  const form = page.getByRole('form', { name: 'Add an endpoint' })
  await form.getByLabel('Endpoint URL').fill(`http://127.0.0.1:9/${description.toLowerCase().replace(' ', '-')}`)
  await form.getByLabel('Description (optional)').fill(description)
  // Adding an endpoint needs the password (decision 0141).
  await form.getByLabel('Your password').fill(owner.password)
  return form
}

/** A Pro creator's published course, on its publish page: the Team region with its invite-by-e-mail form. */
async function courseTeam(page: Page, db: Parameters<typeof createCreator>[0], baseURL: string) {
  const owner = await createCreator(db, { plan: 'pro' })
  const { id: courseId } = await createCreatorCourse(db, owner, { status: 'published' })
  await signInAs(page, baseURL, db, owner)
  await page.goto(`/studio/courses/${courseId}/publish`)
  return page.getByRole('region', { name: 'Team' })
}

test('with the keyboard, the school’s role select saves only the role chosen with Enter, and keeps focus while and after it is saved', async ({
  page,
  db,
  baseURL,
}) => {
  const owner = await createCreator(db, { plan: 'enterprise' })
  const member = await createUser(db)
  const school = await ensureSchool(db, owner.id)
  await putSchoolMember(db, { schoolId: school.id, userId: member.id, role: 'instructor', addedBy: owner.id })
  const saved = async () =>
    (await db.selectFrom('school_members').select('role').where('user_id', '=', member.id).executeTakeFirstOrThrow())
      .role
  await signInAs(page, baseURL as string, db, owner)
  await page.goto('/studio/school')
  const role = page.getByRole('combobox', { name: `Role of ${member.email}` })
  await role.focus()
  // Stepping through the options passes Finance (earnings, payouts, API keys): none is saved, each only shown.
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(role).toHaveValue('support')
  await expect(role).not.toHaveAttribute('aria-disabled')
  expect(await saved()).toBe('instructor')
  // Enter saves the one showing; meanwhile the select is aria-disabled and keeps the focus.
  await slow(page, 'schools.setRole')
  await page.keyboard.press('Enter')
  await expect(role).toBeFocused()
  await expect(role).toHaveAttribute('aria-disabled', 'true')
  await expect(role).not.toHaveAttribute('aria-disabled')
  await expect(role).toBeFocused()
  await expect(role).toHaveValue('support')
  expect(await saved()).toBe('support')
})

test('with the keyboard, Revoke keeps focus while the key is revoked', async ({ page, db, baseURL }) => {
  const owner = await createCreator(db, { plan: 'enterprise' })
  await signInAs(page, baseURL as string, db, owner)
  await page.goto('/studio/api')
  const form = page.getByRole('form', { name: 'Create a key' })
  await form.getByLabel('Key name').fill('Focus check')
  await form.getByLabel('Your password').fill(owner.password)
  await form.getByRole('button', { name: 'Create key' }).click()
  await page.getByRole('button', { name: 'I have copied it' }).click()
  await slow(page, 'apiKeys.revoke')
  const revoke = page.getByRole('button', { name: 'Revoke Focus check' })
  await revoke.focus()
  page.once('dialog', (dialog) => void dialog.accept())
  await page.keyboard.press('Enter')
  await expect(revoke).toBeFocused()
  await expect(revoke).toHaveAttribute('aria-disabled', 'true')
  // Revoked, the button is gone: focus goes to the list's heading, never to the page.
  await expect(page.getByRole('list', { name: 'API keys' })).toContainText('Revoked')
  await expect(page.getByRole('heading', { name: 'Your keys' })).toBeFocused()
})

test('with the keyboard, a course team’s Cancel keeps focus while the invitation is cancelled', async ({
  page,
  db,
  baseURL,
}) => {
  const team = await courseTeam(page, db, baseURL as string)
  const invitee = `invitee-${Date.now().toString(36)}@example.com`
  await team.getByLabel('Invite by e-mail').fill(invitee)
  await team.getByRole('button', { name: 'Send invitation' }).click()
  await expect(team.getByTestId('team-members')).toContainText(invitee)
  await slow(page, 'studioPublishing.cancelInvite')
  const cancel = team.getByRole('button', { name: `Cancel the invitation of ${invitee}` })
  await cancel.focus()
  await page.keyboard.press('Enter')
  await expect(cancel).toBeFocused()
  await expect(cancel).toHaveAttribute('aria-disabled', 'true')
  await expect(team.getByTestId('team-members')).toHaveCount(0)
})

test('with the keyboard, a webhook’s Send test event keeps focus while and after the event is sent', async ({
  page,
  db,
  baseURL,
}) => {
  const form = await filledEndpointForm(page, db, baseURL as string, 'Focus check')
  await form.getByRole('button', { name: 'Add endpoint' }).click()
  const endpoint = page.getByRole('region', { name: 'Endpoint Focus check' })
  await expect(endpoint).toBeVisible()
  await slow(page, 'webhooks.sendTest')
  const send = endpoint.getByRole('button', { name: 'Send test event' })
  await send.focus()
  await page.keyboard.press('Enter')
  await expect(send).toBeFocused()
  await expect(send).toHaveAttribute('aria-disabled', 'true')
  await expect(send).not.toHaveAttribute('aria-disabled')
  await expect(send).toBeFocused()
})

test('with the keyboard, Add endpoint keeps focus while the endpoint is added, adds it once, then shows its secret', async ({
  page,
  db,
  baseURL,
}) => {
  const form = await filledEndpointForm(page, db, baseURL as string, 'Focus add')
  // Held back long enough that the second Enter surely lands while it saves (after it, Enter would send the emptied
  // form and its error would take the focus).
  await slow(page, 'webhooks.create', 4000)
  const add = form.getByRole('button', { name: /Add endpoint|Adding/ })
  // Enter again while it saves sends nothing (the click is cancelled): one endpoint.
  await pressWhileBusy(page, add, { twice: true })
  await expect(page.getByRole('region', { name: 'Endpoint Focus add' })).toBeVisible()
  await expect(add).not.toHaveAttribute('aria-disabled')
  // Added, its secret is shown once above the form, and focus goes to it (as a new API key's does).
  await expect(page.getByRole('heading', { name: 'The signing secret of “Focus add”' })).toBeFocused()
  await expect(page.getByRole('region', { name: 'Endpoint Focus add' })).toHaveCount(1)
})

test('with the keyboard, Send invitation keeps focus while and after the invitation is sent', async ({
  page,
  db,
  baseURL,
}) => {
  const team = await courseTeam(page, db, baseURL as string)
  const invitee = `focus-${Date.now().toString(36)}@example.com`
  await team.getByLabel('Invite by e-mail').fill(invitee)
  await slow(page, 'studioPublishing.invite')
  const send = team.getByRole('button', { name: /Send invitation|Sending/ })
  await send.focus()
  await page.keyboard.press('Enter')
  await expect(send).toBeFocused()
  await expect(send).toHaveAttribute('aria-disabled', 'true')
  await expect(send).not.toHaveAttribute('disabled')
  await expect(team.getByTestId('team-members')).toContainText(invitee)
  // Sent, the field is empty again: the button stays where the keyboard is, still blocked until an address is typed.
  await expect(send).toHaveText('Send invitation')
  await expect(send).toBeFocused()
  await expect(team.getByLabel('Invite by e-mail')).toHaveValue('')
})

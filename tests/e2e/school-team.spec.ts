// A creator's school and team (issue 36, decision 0057): the owner invites a finance member by e-mail from the
// studio's School page; the member, signed in with that address, accepts through the mailed single-use link, sees the
// school's earnings, and cannot edit a course — neither through the studio's pages nor by calling the server — then
// leaves the school from its page, once confirmed. Removing a member asks first (decision 0144).

import { putSchoolMember } from '../../src-server/creators/school-team.ts'
import { ensureSchool } from '../../src-server/creators/schools.ts'
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { sell } from '../support/earnings.ts'
import { createUser } from '../support/factories.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('the owner invites a finance member who accepts, sees earnings and cannot edit a course', async ({
  page,
  db,
  baseURL,
  browser,
}) => {
  // Two browsers through the invitation, the member's pages and the leaving: past 30 s on a loaded machine.
  test.setTimeout(60_000)
  const owner = await createCreator(db, { plan: 'pro' })
  const course = await createCreatorCourse(db, owner, { status: 'published', title: 'Budgeting for Makers' })
  await sell(db, [{ id: course.id, title: course.title, price_minor: 4900 }])
  const email = `finance-${Date.now().toString(36)}@example.com`
  const member = await createUser(db, { email, firstName: 'Fin', lastName: 'Ance' })

  await signInAs(page, baseURL as string, db, owner)
  await page.goto('/studio/school')
  await expect(page.getByRole('heading', { name: 'Your school', level: 1 })).toBeVisible()
  const invite = page.getByRole('form', { name: 'Invite a team member' })
  await invite.getByLabel('E-mail address').fill(email)
  await invite.getByLabel('Role').selectOption('finance')
  await invite.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible()
  await expect(page.getByRole('list', { name: 'Invitations' })).toContainText(`${email} · Finance`)

  const mail = await db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', email)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow()
  const link = /http\S+\/school-invite\?token=[a-z0-9]+/.exec(mail.text_body)?.[0]
  expect(link).toBeTruthy()

  const memberContext = await browser.newContext({ baseURL })
  const tab = await memberContext.newPage()
  await signInAs(tab, baseURL as string, db, member)
  // The token reaches the server in the mailed link's address only: the page's calls (the invitation asked for
  // again once accepted) carry it in their bodies, where no proxy's access log keeps it.
  const token = new URL(link as string).searchParams.get('token') as string
  const callsWithToken: { url: string; method: string }[] = []
  tab.on('request', (request) => {
    if (request.url().includes('/trpc/') && `${request.url()}${request.postData() ?? ''}`.includes(token)) {
      callsWithToken.push({ url: request.url(), method: request.method() })
    }
  })
  await tab.goto(link as string)
  await expect(tab.getByText('as finance')).toBeVisible()
  await tab.getByRole('button', { name: 'Accept the invitation' }).click()
  await expect(tab).toHaveURL(/\/member\/[0-9a-f-]{36}$/)
  const memberPage = tab.url()
  expect(callsWithToken.length).toBeGreaterThan(0)
  for (const call of callsWithToken) {
    expect(call.method).toBe('POST')
    expect(call.url).not.toContain(token)
  }
  await expect(tab.getByTestId('member-role')).toHaveText('Finance')
  // The school's earnings: the sale's share is pending.
  const balances = tab.getByRole('region', { name: 'Earnings' })
  await expect(balances.getByText('Pending (USD)')).toBeVisible()
  await expect(balances.getByRole('definition').first()).not.toHaveText('$0.00')

  // The link works once.
  await tab.goto(link as string)
  await expect(tab.getByText('This invitation link is invalid or has expired')).toBeVisible()

  // No course editing: the server refuses the studio's edit call for the finance role.
  const refusal = await tab.evaluate(async (courseId) => {
    const response = await fetch('/trpc/studio.addSection', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ courseId, title: 'Sneaky section' }),
    })
    return { status: response.status, body: await response.text() }
  }, course.id)
  expect(refusal.status).toBe(403)
  expect(refusal.body).toContain('Your role in this school (finance) does not allow that')
  const sections = await db.selectFrom('course_sections').select('title').where('course_id', '=', course.id).execute()
  expect(sections.map((s) => s.title)).not.toContain('Sneaky section')

  // The owner sees the member in the team.
  await page.reload()
  await expect(page.getByRole('list', { name: 'Team members' })).toContainText(email)

  // The member leaves from the school's page, once confirmed; the owner's team is empty again.
  await tab.goto(memberPage)
  await tab.getByRole('button', { name: 'Leave this school' }).click()
  await tab
    .getByRole('dialog', { name: /^Leave / })
    .getByRole('button', { name: 'Leave the school' })
    .click()
  await expect(tab).toHaveURL(/\/account$/)
  expect(await db.selectFrom('school_members').select('school_id').where('user_id', '=', member.id).execute()).toEqual(
    [],
  )
  await page.reload()
  await expect(page.getByText('No team members yet')).toBeVisible()
  await memberContext.close()
})

test('on a phone, the team’s buttons naming a long e-mail address wrap inside the page', async ({
  page,
  db,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  const owner = await createCreator(db, { plan: 'enterprise' })
  const stamp = Date.now().toString(36)
  const member = await createUser(db, { email: `maximilian.featherstonehaugh-${stamp}@example.com` })
  const school = await ensureSchool(db, owner.id)
  await putSchoolMember(db, { schoolId: school.id, userId: member.id, role: 'instructor', addedBy: owner.id })
  const invited = `bartholomew.wolstenholme-${stamp}@example.com`

  await signInAs(page, baseURL as string, db, owner)
  await page.goto('/studio/school')
  const invite = page.getByRole('form', { name: 'Invite a team member' })
  await invite.getByLabel('E-mail address').fill(invited)
  await invite.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByRole('button', { name: `Cancel invitation to ${invited}` })).toBeVisible()
  await expect(page.getByRole('button', { name: `Remove ${member.email}` })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
})

test('with the keyboard, cancelling an invitation or removing a member leaves focus on the team’s heading', async ({
  page,
  db,
  baseURL,
}) => {
  const owner = await createCreator(db, { plan: 'enterprise' })
  const member = await createUser(db)
  const school = await ensureSchool(db, owner.id)
  await putSchoolMember(db, { schoolId: school.id, userId: member.id, role: 'instructor', addedBy: owner.id })
  const invited = `invitee-${Date.now().toString(36)}@example.com`

  await signInAs(page, baseURL as string, db, owner)
  await page.goto('/studio/school')
  const invite = page.getByRole('form', { name: 'Invite a team member' })
  await invite.getByLabel('E-mail address').fill(invited)
  await invite.getByRole('button', { name: 'Send invitation' }).click()
  const team = page.getByRole('heading', { name: 'Team', level: 2, exact: true })

  await page.getByRole('button', { name: `Cancel invitation to ${invited}` }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('button', { name: `Cancel invitation to ${invited}` })).toHaveCount(0)
  await expect(team).toBeFocused()

  // Remove asks first: Escape keeps the member (and the focus on the button), Remove in the dialog removes them.
  const remove = page.getByRole('button', { name: `Remove ${member.email}` })
  await remove.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Remove from the team?' })
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(remove).toBeFocused()
  await page.keyboard.press('Enter')
  await dialog.getByRole('button', { name: 'Remove' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('list', { name: 'Team members' })).toHaveCount(0)
  await expect(team).toBeFocused()
})

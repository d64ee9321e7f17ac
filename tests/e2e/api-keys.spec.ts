// API keys and the REST API (issue 36, decision 0060): an Enterprise school owner creates a key in the studio (with
// their password, decision 0131; the key shown once, the owner mailed of it without it), a script lists the school's
// enrolments with it (a curl-style request) and sees the learner; the owner revokes the key and the same request is
// refused 401.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { grant } from '../../src-server/access/ledger.ts'
import { ENROLMENT_INVITE_MAIL } from '../../src-server/flows/enrolment-invites.ts'
import { API_KEY_CREATED_MAIL_KIND, createSchoolApiKey } from '../../src-server/flows/school-api-keys.ts'
import { latestMailTo } from '../../src-server/mail/outbox.ts'
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { expect, signInAs, test } from './fixtures.ts'
import { recordSecrets } from './secrets.ts'

test('an Enterprise owner creates a key, lists enrolments with it, revokes it and the key stops working', async ({
  page,
  db,
  baseURL,
  request,
}) => {
  const owner = await createCreator(db, { plan: 'enterprise' })
  const course = await createCreatorCourse(db, owner, { status: 'published', title: 'Kilns and Glazes' })
  const learner = await createUser(db, { email: `api-learner-${Date.now().toString(36)}@example.com` })
  await grant(db, { userId: learner.id, right: { kind: 'course', courseId: course.id }, source: { kind: 'staff' } })

  await signInAs(page, baseURL as string, db, owner)
  await page.goto('/studio/api')
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible()
  const form = page.getByRole('form', { name: 'Create a key' })
  await form.getByLabel('Key name').fill('Enrolment sync')
  await form.getByLabel('Expires').selectOption('30')
  // A key outlives the session that makes it: the owner proves it is them (decision 0131).
  await form.getByRole('button', { name: 'Create key' }).click()
  await expect(form.getByRole('alert')).toContainText('Enter your password, or a code from your authenticator app.')
  await form.getByLabel('Your password').fill(owner.password)
  await form.getByRole('button', { name: 'Create key' }).click()
  const shown = page.getByTestId('new-api-key')
  await expect(shown).toHaveText(/^sfk_[a-z2-7]{40}$/)
  const key = (await shown.textContent()) as string
  recordSecrets(new Set([key]))
  await expect(page.getByRole('list', { name: 'API keys' })).toContainText('Enrolment sync')
  await expect(page.getByRole('list', { name: 'API keys' })).toContainText(key.slice(0, 12))
  // The owner is told of the new key by e-mail, without the key.
  const told = await latestMailTo(db, owner.email, API_KEY_CREATED_MAIL_KIND)
  expect(told?.subject).toContain('“Enrolment sync”')
  expect(told?.text_body).not.toContain(key.slice(12))

  // curl -H "Authorization: Bearer $KEY" /api/v1/enrolments
  const listed = await request.get('/api/v1/enrolments', { headers: { authorization: `Bearer ${key}` } })
  expect(listed.status()).toBe(200)
  expect(listed.headers().ratelimit).toMatch(/r=\d+/)
  const body = await listed.json()
  expect(body.data).toEqual([
    expect.objectContaining({ course_id: course.id, learner: { id: learner.id, email: learner.email } }),
  ])

  await page.getByRole('button', { name: 'I have copied it' }).click()
  await expect(shown).toBeHidden()
  // Revoke asks first, as the webhooks page's Remove does (decision 0141): dismissed, the key stays active.
  const asked: string[] = []
  page.once('dialog', (dialog) => {
    asked.push(dialog.message())
    void dialog.dismiss()
  })
  await page.getByRole('button', { name: 'Revoke Enrolment sync' }).click()
  await expect.poll(() => asked).toEqual(['Revoke the key “Enrolment sync”? Whatever uses it stops working at once.'])
  await expect(page.getByRole('list', { name: 'API keys' })).toContainText('Active')
  expect((await request.get('/api/v1/enrolments', { headers: { authorization: `Bearer ${key}` } })).status()).toBe(200)
  page.once('dialog', (dialog) => void dialog.accept())
  await page.getByRole('button', { name: 'Revoke Enrolment sync' }).click()
  await expect(page.getByRole('list', { name: 'API keys' })).toContainText('Revoked')

  const refused = await request.get('/api/v1/enrolments', { headers: { authorization: `Bearer ${key}` } })
  expect(refused.status()).toBe(401)
  expect(await refused.json()).toEqual({ error: { code: 'key_revoked', message: 'This API key was revoked' } })
})

test('on a phone, a key with a long name is listed with its Revoke button inside the page', async ({
  page,
  db,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  const owner = await createCreator(db, { plan: 'enterprise' })
  await signInAs(page, baseURL as string, db, owner)
  await page.goto('/studio/api')
  const form = page.getByRole('form', { name: 'Create a key' })
  await form.getByLabel('Key name').fill('Zapier integration for the accounting team')
  await form.getByLabel('Your password').fill(owner.password)
  await form.getByRole('button', { name: 'Create key' }).click()
  const shown = page.getByTestId('new-api-key')
  await expect(shown).toBeVisible()
  recordSecrets(new Set([(await shown.textContent()) as string]))
  await expect(page.getByRole('button', { name: 'Revoke Zapier integration for the accounting team' })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
})

test('with the keyboard, focus follows the new key, then the list, and stays in the list when a key is revoked', async ({
  page,
  db,
  baseURL,
}) => {
  const owner = await createCreator(db, { plan: 'enterprise' })
  await signInAs(page, baseURL as string, db, owner)
  await page.goto('/studio/api')
  const form = page.getByRole('form', { name: 'Create a key' })
  await form.getByLabel('Key name').fill('Nightly export')
  await form.getByLabel('Your password').fill(owner.password)
  await form.getByRole('button', { name: 'Create key' }).focus()
  await page.keyboard.press('Enter')
  const shown = page.getByTestId('new-api-key')
  await expect(shown).toBeVisible()
  recordSecrets(new Set([(await shown.textContent()) as string]))
  await expect(page.getByRole('heading', { name: 'Your new key “Nightly export”' })).toBeFocused()

  await page.getByRole('button', { name: 'I have copied it' }).focus()
  await page.keyboard.press('Enter')
  await expect(shown).toBeHidden()
  await expect(page.getByRole('heading', { name: 'Your keys' })).toBeFocused()

  await page.getByRole('button', { name: 'Revoke Nightly export' }).focus()
  page.once('dialog', (dialog) => void dialog.accept())
  await page.keyboard.press('Enter')
  await expect(page.getByRole('list', { name: 'API keys' })).toContainText('Revoked')
  await expect(page.getByRole('heading', { name: 'Your keys' })).toBeFocused()
})

/** An Enterprise owner with a published course and a key that reads and writes enrolments (its header). */
async function schoolWithRosterKey(db: Kysely<Database>, title: string) {
  const owner = await createCreator(db, { plan: 'enterprise' })
  const course = await createCreatorCourse(db, owner, { status: 'published', title })
  // Seeded past the studio's form (and its fresh proof): the mail it queues names this address only.
  const { key } = await createSchoolApiKey(
    db,
    owner.id,
    { name: 'Roster sync', scopes: ['enrolments:read', 'enrolments:write'], expiresInDays: 30 },
    'http://127.0.0.1',
  )
  recordSecrets(new Set([key]))
  return { owner, course, headers: { authorization: `Bearer ${key}` } }
}

// Decision 0128: a school enrols someone it has no enrolment of only with their consent. The API answers 202 and
// mails an invitation; the person, signed out, follows the link, logs in with that address, accepts and finds the course.
test('a school enrols someone new through the API: they accept the mailed invitation and find the course', async ({
  page,
  db,
  request,
}) => {
  const { course, headers } = await schoolWithRosterKey(db, 'Throwing on the Wheel')
  const email = `invited-learner-${Date.now().toString(36)}@example.com`
  const learner = await createUser(db, { email, firstName: 'Ines' })

  const invited = await request.post('/api/v1/enrolments', { headers, data: { course_id: course.id, email } })
  expect(invited.status()).toBe(202)
  expect(await invited.json()).toMatchObject({ email, course_id: course.id, status: 'invited' })
  const before = await request.get(`/api/v1/enrolments?course_id=${course.id}`, { headers })
  expect((await before.json()).data).toEqual([])

  const mail = await latestMailTo(db, email, ENROLMENT_INVITE_MAIL)
  const link = /http\S+\/enrolment-invite\?token=[a-z0-9]+/.exec(mail?.text_body ?? '')?.[0]
  expect(link).toBeTruthy()

  // Signed out, the link leads to the log-in page first, and the token does not ride along in its address.
  await page.goto(link as string)
  await expect(page).toHaveURL(/\/login\?redirect=%2Fenrolment-invite$/)
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(learner.password)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByRole('heading', { name: 'Take a course', level: 1 })).toBeVisible()
  await expect(page).toHaveURL(/\/enrolment-invite$/)
  await expect(page.getByText('Throwing on the Wheel')).toBeVisible()
  await page.getByRole('button', { name: 'Accept the invitation' }).click()
  await expect(page).toHaveURL(new RegExp(`/learn/${course.id}`))
  await expect(page.getByText('You are enrolled: the course is in My courses')).toBeVisible()

  await expect
    .poll(async () => (await (await request.get(`/api/v1/enrolments?course_id=${course.id}`, { headers })).json()).data)
    .toEqual([expect.objectContaining({ source: 'school', status: 'active', learner: { id: learner.id, email } })])
})

// The owner sees, in the studio, whom the API invited to which course, and withdraws an invitation: on a phone, with
// the keyboard; the API then lists only the other one.
test('the owner lists the open course invitations in the studio and withdraws one', async ({
  page,
  db,
  baseURL,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  const { owner, course, headers } = await schoolWithRosterKey(db, 'Slip Casting')
  const stamp = Date.now().toString(36)
  const kept = `kept-${stamp}@example.com`
  const withdrawn = `a-rather-long-address-for-the-roster-${stamp}@pottery-school.example.com`
  for (const email of [kept, withdrawn]) {
    const invited = await request.post('/api/v1/enrolments', { headers, data: { course_id: course.id, email } })
    expect(invited.status()).toBe(202)
  }

  await signInAs(page, baseURL as string, db, owner)
  await page.goto('/studio/api')
  const list = page.getByRole('list', { name: 'Open invitations' })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  await expect(list).toContainText(`${kept} · Slip Casting`)
  await page.getByRole('button', { name: `Withdraw the invitation to ${withdrawn}` }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByText('Invitation withdrawn: its link no longer works')).toBeVisible()
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(list).not.toContainText(withdrawn)
  await expect(page.getByRole('heading', { name: 'Course invitations' })).toBeFocused()
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)

  const open = await (await request.get('/api/v1/enrolment-invitations', { headers })).json()
  expect(open.data.map((invite: { email: string }) => invite.email)).toEqual([kept])
})

test('the API reference page fits a phone and shows each scope as code', async ({ context }) => {
  // A plain page, not the app: a page of its own, without the fixture's wait for the app to hydrate.
  const page = await context.newPage()
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/developers/api')
  await expect(page.getByRole('heading', { name: 'API reference (v1)' })).toBeVisible()
  const row = page.getByRole('row').filter({ hasText: 'List the school’s courses' })
  await expect(row.locator('code').filter({ hasText: /^courses:read$/ })).toBeVisible()
  await expect(row).not.toContainText('`')
  // The webhooks' events, each with its payload: an enrolment names the API's enrolment (decision 0141).
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 2 })).toBeVisible()
  const granted = page.getByRole('table', { name: 'data of enrolment.granted' })
  const field = (name: string) =>
    granted.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) })
  await expect(field('enrolmentId')).toContainText('The enrolment: id in GET /api/v1/enrolments')
  await expect(field('source')).toContainText('"purchase" | "school" | "free"')
  // No sideways page scroll: the operations table scrolls inside its own box.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
})

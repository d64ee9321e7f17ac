// A finance member's own API keys (issue 36, decision 0060): on an Enterprise owner's school, the finance member opens
// their member page, follows it to their API keys, creates one (shown once; only the scopes their role allows are
// offered), reads the school's orders with it (a curl-style request), is refused the school's courses and an
// enrolment grant (403, naming the missing scope), then revokes it and the same request is refused 401.
import { ensureSchool } from '../../src-server/creators/schools.ts'
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { axeViolations } from './a11y.ts'
import { expect, signInAs, test } from './fixtures.ts'
import { recordSecrets } from './secrets.ts'

test('a finance member creates their own key, reads orders with it, is refused courses and writes, revokes it', async ({
  page,
  db,
  baseURL,
  request,
}) => {
  const owner = await createCreator(db, { plan: 'enterprise' })
  const course = await createCreatorCourse(db, owner, { status: 'published', title: 'Ledgers for Luthiers' })
  const school = await ensureSchool(db, owner.id)
  const member = await createUser(db, { firstName: 'Fina', lastName: 'Nance' })
  await db.insertInto('school_members').values({ school_id: school.id, user_id: member.id, role: 'finance' }).execute()
  const learner = await createUser(db)

  await signInAs(page, baseURL as string, db, member)
  await page.goto(`/member/${school.id}`)
  await page.getByRole('link', { name: 'Manage your API keys' }).click()
  await expect(page).toHaveURL(new RegExp(`/member/${school.id}/api$`))
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible()
  const form = page.getByRole('form', { name: 'Create a key' })
  // Only the scopes a finance member's key may carry are offered.
  await expect(form.getByRole('checkbox')).toHaveCount(2)
  await expect(form.getByRole('checkbox', { name: 'Orders — read' })).toBeChecked()
  await expect(form.getByRole('checkbox', { name: 'Earnings — read' })).toBeChecked()
  await form.getByLabel('Key name').fill('Accounting export')
  await form.getByLabel('Your password').fill(member.password)
  await form.getByRole('button', { name: 'Create key' }).click()
  const shown = page.getByTestId('new-api-key')
  await expect(shown).toHaveText(/^sfk_[a-z2-7]{40}$/)
  const key = (await shown.textContent()) as string
  recordSecrets(new Set([key]))
  const list = page.getByRole('list', { name: 'API keys' })
  await expect(list).toContainText('Accounting export')
  await expect(list).toContainText('orders:read, earnings:read')
  expect(await axeViolations(page)).toEqual([])
  const stored = await db
    .selectFrom('api_keys')
    .select(['created_by', 'school_id'])
    .where('prefix', '=', key.slice(0, 12))
    .executeTakeFirstOrThrow()
  expect(stored).toEqual({ created_by: member.id, school_id: school.id })

  const auth = { authorization: `Bearer ${key}` }
  const orders = await request.get('/api/v1/orders', { headers: auth })
  expect(orders.status()).toBe(200)
  expect(await orders.json()).toEqual(expect.objectContaining({ data: [] }))

  const courses = await request.get('/api/v1/courses', { headers: auth })
  expect(courses.status()).toBe(403)
  expect(await courses.json()).toEqual({
    error: { code: 'insufficient_scope', message: 'This API key lacks the scope courses:read' },
  })
  const write = await request.post('/api/v1/enrolments', {
    headers: auth,
    data: { course_id: course.id, user_id: learner.id },
  })
  expect(write.status()).toBe(403)
  expect(await write.json()).toEqual({
    error: { code: 'insufficient_scope', message: 'This API key lacks the scope enrolments:write' },
  })
  const enrolled = await db.selectFrom('access_grants').select('id').where('user_id', '=', learner.id).execute()
  expect(enrolled).toEqual([])

  await page.getByRole('button', { name: 'I have copied it' }).click()
  // Revoke asks first (decision 0141).
  page.once('dialog', (dialog) => void dialog.accept())
  await page.getByRole('button', { name: 'Revoke Accounting export' }).click()
  await expect(list).toContainText('Revoked')
  const refused = await request.get('/api/v1/orders', { headers: auth })
  expect(refused.status()).toBe(401)
  expect(await refused.json()).toEqual({ error: { code: 'key_revoked', message: 'This API key was revoked' } })
})

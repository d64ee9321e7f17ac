// Drip (issue 33), end to end with the server's test clock: a creator drips a section 7 days after enrolment in the
// studio; the learner sees its date and no content; the clock moves 7 days (the hourly sweep runs with it): the section
// opens and its e-mail is in the outbox once, however often the sweep runs after.

import { buyPlan, restorePlan } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { studioCourseOf } from '../support/studio.ts'
import { expect, followServerClock, serverNow, signInAs, test } from './fixtures.ts'

// The clock specs share one server whose clock the earlier ones moved on: this process follows it.
test.beforeEach(({ page, baseURL }) => followServerClock(page, baseURL as string))

const DAY = 86_400

test('a section dripped 7 days after enrolment opens when the clock moves 7 days, with one e-mail', async ({
  page,
  db,
  login,
  baseURL,
}) => {
  const creator = await login({ firstName: 'Ada', lastName: 'Lovelace' })
  const courseId = await studioCourseOf(db, creator.id)
  // Drip content comes with Pro; the grant runs on with no end, whatever the earlier clock specs did to the clock.
  await buyPlan(db, creator, 'pro')
  await restorePlan(db, creator.id)
  const section = await db
    .insertInto('course_sections')
    .values({ course_id: courseId, position: 1, title: 'Week two' })
    .returning('id')
    .executeTakeFirstOrThrow()
  const lesson = await db
    .insertInto('lessons')
    .values({
      course_id: courseId,
      section_id: section.id,
      position: 0,
      title: 'The dripped lesson',
      body_markdown: 'Week two secret text',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.updateTable('courses').set({ status: 'published' }).where('id', '=', courseId).execute()

  await page.goto(`/studio/courses/${courseId}/curriculum`)
  const week = page.getByRole('listitem', { name: 'Section 2: Week two' })
  await week.getByText('Release:').click()
  await week.getByLabel('Days after enrolment').fill('7')
  await week.getByRole('button', { name: 'Save release' }).click()
  await expect(week.getByTestId('drip-summary')).toHaveText('Opens 7 days after enrolment')

  const learner = await createUser(db, { firstName: 'Lena' })
  // Access begins now on the server's clock (earlier clock specs may have moved it past the database's now()).
  const began = await serverNow(page, baseURL as string)
  await db
    .insertInto('access_grants')
    .values({ user_id: learner.id, kind: 'course', course_id: courseId, source: 'staff', starts_at: began })
    .execute()
  await page.context().clearCookies()
  await signInAs(page, baseURL as string, db, learner)
  await page.goto(`/learn/${courseId}/${lesson.id}`)
  await expect(page.getByTestId('dripped-lesson')).toContainText('This lesson opens on')
  await expect(page.getByTestId('section-opens')).toContainText('Opens on')
  await expect(page.getByText('Week two secret text')).toHaveCount(0)

  const drips = () =>
    db
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', learner.email)
      .where('kind', '=', 'drip_unlocked')
      .execute()
  const move = async (seconds: number) => {
    const response = await page.request.post('/api/test/clock', {
      data: { advanceSeconds: seconds },
      headers: { origin: baseURL as string },
    })
    expect(response.status()).toBe(200)
  }
  await move(6 * DAY)
  expect(await drips()).toHaveLength(0)
  await move(DAY + 2 * 3600)
  await page.reload()
  await expect(page.getByText('Week two secret text')).toBeVisible()
  await expect(page.getByTestId('section-opens')).toHaveCount(0)
  await expect.poll(async () => (await drips()).length).toBe(1)
  await move(3 * 3600)
  expect(await drips()).toHaveLength(1)
})

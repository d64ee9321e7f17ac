// Live sessions (issue 34) end to end with the server's clock: a creator schedules a session in the studio at 18:00
// New York time; a learner of the course registers on /live; the invitation's .ics (parsed with ical.js) starts at the
// right UTC instant; the clock moves to an hour before: the reminder is e-mailed once, however often the job runs; from
// 15 minutes before, Join leads through /live/<id>/join to the video service and the host sees the attendance.
import ICAL from 'ical.js'
import { utcToLocalInput, zonedToUtc } from '../../src-server/live/zoned-time.ts'
import { createUser } from '../support/factories.ts'
import { studioCourseOf } from '../support/studio.ts'
import { advanceServerClock, expect, followServerClock, serverNow, signInAs, test } from './fixtures.ts'

// The clock specs share one server whose clock the earlier ones moved on: this process follows it.
test.beforeEach(({ page, baseURL }) => followServerClock(page, baseURL as string))

const ZONE = 'America/New_York'
const JOIN_URL = 'https://meet.example.com/live-e2e'

test('a session booked: its invitation starts at the right UTC time, the reminder goes once, Join records attendance', async ({
  page,
  db,
  login,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const base = baseURL as string
  const creator = await login({ firstName: 'Hana', lastName: 'Host' })
  const courseId = await studioCourseOf(db, creator.id)
  await db.updateTable('courses').set({ status: 'published' }).where('id', '=', courseId).execute()

  // Two days ahead on the server's clock, at 18:00 in New York.
  const now = (await serverNow(page, base)) ?? new Date()
  const day = utcToLocalInput(new Date(now.getTime() + 2 * 86_400_000), ZONE).slice(0, 10)
  const localStart = `${day}T18:00`
  const startsAt = zonedToUtc(localStart, ZONE)
  const title = `Live Q&A ${Date.now().toString(36)}`

  await page.goto('/studio/live')
  const form = page.getByRole('form', { name: 'Schedule a session' })
  // Sent with no title, no start and a plain http link: the shared schema's messages under the fields (no browser
  // bubbles), focus on the first, nothing saved.
  await form.getByLabel('Join link (https)').fill('http://meet.example.com/live-e2e')
  await form.getByRole('button', { name: 'Schedule session' }).click()
  await expect(form.getByLabel('Title')).toBeFocused()
  await expect(form.getByLabel('Title')).toHaveAccessibleDescription('Give the session a title')
  await expect(form.getByLabel("Start (in the session's time zone)")).toHaveAccessibleDescription(
    'Give the start as a date and a time',
  )
  await expect(form.getByLabel('Join link (https)')).toHaveAccessibleDescription(/The join link must be an https/)
  expect(await db.selectFrom('live_sessions').select('id').where('course_id', '=', courseId).execute()).toEqual([])

  await form.getByLabel('Title').fill(title)
  await form.getByLabel("Start (in the session's time zone)").fill(localStart)
  await form.getByLabel('Time zone', { exact: true }).selectOption(ZONE)
  await form.getByLabel('Duration (minutes)').fill('60')
  await form.getByLabel('Capacity (seats)').fill('10')
  await form.getByLabel('Join link (https)').fill(JOIN_URL)
  await form.getByRole('button', { name: 'Schedule session' }).click()
  await expect(page.getByRole('listitem', { name: title })).toBeVisible()

  const learner = await createUser(db, { firstName: 'Lee' })
  await db
    .insertInto('access_grants')
    .values({ user_id: learner.id, kind: 'course', course_id: courseId, source: 'staff', starts_at: now })
    .execute()
  await page.context().clearCookies()
  await signInAs(page, base, db, learner)
  await page.goto('/live')
  const item = page.getByRole('listitem', { name: title })
  await item.getByRole('button', { name: 'Register' }).click()
  await expect(item.getByTestId('live-status')).toHaveText('You are registered')
  await expect(item.getByRole('link', { name: 'Join now' })).toHaveCount(0)

  const invitations = await db
    .selectFrom('mail_outbox')
    .select(['calendar_ics', 'calendar_method'])
    .where('to_address', '=', learner.email)
    .where('kind', '=', 'live_invitation')
    .execute()
  expect(invitations).toHaveLength(1)
  const ics = invitations[0]?.calendar_ics ?? ''
  expect(invitations[0]?.calendar_method).toBe('REQUEST')
  const calendar = new ICAL.Component(ICAL.parse(ics))
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone)
  expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST')
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent') as ICAL.Component)
  expect(event.summary).toBe(title)
  expect(event.startDate.zone?.tzid).toBe(ZONE)
  expect(event.startDate.toJSDate().toISOString()).toBe(startsAt.toISOString())
  expect(event.endDate.toJSDate().getTime() - startsAt.getTime()).toBe(3_600_000)
  expect(ics).not.toContain(JOIN_URL)

  const reminders = () =>
    db
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', learner.email)
      .where('kind', '=', 'live_reminder')
      .execute()
  const untilStart = async () => startsAt.getTime() - ((await serverNow(page, base)) ?? new Date()).getTime()
  await advanceServerClock(page, base, Math.floor(((await untilStart()) - 75 * 60_000) / 1000))
  expect(await reminders()).toHaveLength(0)
  await advanceServerClock(page, base, 20 * 60)
  await expect.poll(async () => (await reminders()).length).toBe(1)
  await advanceServerClock(page, base, 10 * 60)
  expect(await reminders()).toHaveLength(1)

  // 10 minutes before: Join is offered, and leads (through the server) to the video service.
  await advanceServerClock(page, base, Math.floor(((await untilStart()) - 10 * 60_000) / 1000))
  expect(await reminders()).toHaveLength(1)
  await page.reload()
  const join = page.getByRole('listitem', { name: title }).getByRole('link', { name: 'Join now' })
  const href = await join.getAttribute('href')
  expect(href).toMatch(/^\/live\/[0-9a-f-]{36}\/join$/)
  const response = await page.request.get(href as string, { maxRedirects: 0 })
  expect(response.status()).toBe(303)
  expect(response.headers().location).toBe(JOIN_URL)

  await page.context().clearCookies()
  await signInAs(page, base, db, creator)
  await page.goto('/studio/live')
  const hosted = page.getByRole('listitem', { name: title })
  await hosted.getByRole('button', { name: 'Attendance' }).click()
  await expect(hosted.getByRole('list', { name: 'Attendance' })).toContainText(learner.email)
})

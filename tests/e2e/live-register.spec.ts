// The member's /live page (issue 34): registering for a session the host cancelled while the page was open says why,
// not only "Could not register"; the seats left are counted in words (1 seat, 2 seats). On /live/manage, a session's
// start is told in its own time zone, the one written after it.
import { createUser } from '../support/factories.ts'
import { lessonsOf, premiumMember } from '../support/learning.ts'
import { studioCourseOf } from '../support/studio.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('a registration refused because the session was just cancelled says so', async ({ page, db, baseURL }) => {
  const host = await createUser(db, { role: 'editor' })
  const session = await db
    .insertInto('live_sessions')
    .values({
      host_id: host.id,
      course_id: null,
      title: 'Cancelled meanwhile',
      description: '',
      starts_at: new Date(Date.now() + 3 * 86_400_000),
      duration_minutes: 60,
      time_zone: 'Europe/London',
      capacity: 20,
      join_url: 'https://meet.example.com/abc-defg',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const { user } = await premiumMember(db)
  await signInAs(page, baseURL as string, db, user)
  await page.goto('/live')
  const item = page.getByTestId('live-session').filter({ hasText: 'Cancelled meanwhile' })
  await expect(item.getByRole('button', { name: /Register|waitlist/ })).toBeVisible()
  await db.updateTable('live_sessions').set({ cancelled_at: new Date() }).where('id', '=', session.id).execute()
  await item.getByRole('button', { name: /Register|waitlist/ }).click()
  await expect(page.getByText('Could not register')).toBeVisible()
  await expect(page.getByText('This session was cancelled')).toBeVisible()
  await expect(item.getByText('Cancelled', { exact: true })).toBeVisible()
})

test('the last seat of a session is told as one seat', async ({ page, db, baseURL }) => {
  const host = await createUser(db, { role: 'editor' })
  await db
    .insertInto('live_sessions')
    .values({
      host_id: host.id,
      course_id: null,
      title: 'One seat only',
      description: '',
      starts_at: new Date(Date.now() + 3 * 86_400_000),
      duration_minutes: 60,
      time_zone: 'Europe/London',
      capacity: 1,
      join_url: 'https://meet.example.com/abc-defg',
    })
    .execute()
  const { user } = await premiumMember(db)
  await signInAs(page, baseURL as string, db, user)
  await page.goto('/live')
  const item = page.getByTestId('live-session').filter({ hasText: 'One seat only' })
  await expect(item).toContainText('1 seat left')
  await expect(item).not.toContainText('1 seats left')
  // The invitation is queued, not yet in their mailbox (SMTP may be down): the toast does not claim it arrived.
  await item.getByRole('button', { name: 'Register' }).click()
  await expect(page.getByText('You are registered; we are e-mailing you the invitation')).toBeVisible()
})

test('a past session with both a recording lesson and a link shows two separate links', async ({
  page,
  db,
  baseURL,
}) => {
  const host = await createUser(db, { role: 'editor' })
  const [lesson] = await lessonsOf(db, 'modern-react-typescript')
  await db
    .insertInto('live_sessions')
    .values({
      host_id: host.id,
      course_id: 'modern-react-typescript',
      title: 'Recorded twice',
      description: '',
      starts_at: new Date(Date.now() - 3 * 86_400_000),
      duration_minutes: 60,
      time_zone: 'Europe/London',
      capacity: 20,
      join_url: 'https://meet.example.com/abc-defg',
      recording_url: 'https://video.example.com/recorded-twice',
      recording_lesson_id: lesson?.id ?? null,
    })
    .execute()
  const { user } = await premiumMember(db)
  await signInAs(page, baseURL as string, db, user)
  await page.goto('/live')
  const recording = page.getByTestId('live-session').filter({ hasText: 'Recorded twice' }).getByTestId('live-recording')
  await expect(recording).toHaveText(`Recording: ${lesson?.title} · Watch the recording`)
  await expect(recording.getByRole('link')).toHaveCount(2)
})

test.describe('in a browser in another time zone than the session’s', () => {
  test.use({ timezoneId: 'UTC' })

  test('the manager writes a session’s start in the session’s own zone', async ({ page, db, baseURL }) => {
    const instructor = await createUser(db)
    const courseId = await studioCourseOf(db, instructor.id)
    await db
      .insertInto('live_sessions')
      .values({
        host_id: instructor.id,
        course_id: courseId,
        title: 'Evening in New York',
        description: '',
        starts_at: new Date('2027-03-10T23:00:00Z'), // 18:00 in New York (EST), 23:00 in this browser
        duration_minutes: 60,
        time_zone: 'America/New_York',
        capacity: 20,
        join_url: 'https://meet.example.com/abc-defg',
      })
      .execute()
    await signInAs(page, baseURL as string, db, instructor)
    await page.goto('/live/manage')
    await expect(page.getByRole('listitem', { name: 'Evening in New York' })).toContainText(
      'Wednesday, 10 March 2027 at 18:00 · 60 min · America/New_York',
    )
  })
})

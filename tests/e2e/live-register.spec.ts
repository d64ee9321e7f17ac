// The member's /live page (issue 34): registering for a session the host cancelled while the page was open says why,
// not only "Could not register"; the seats left are counted in words (1 seat, 2 seats); a cancelled past session says
// Cancelled, not "No recording yet". A course's buyer finds its session from the course page, the player, My courses
// and the account menu (decision 0142). On /live/manage, a session's start is told in its own time zone, the one
// written after it; the recording is a lesson or a link, chosen; seats taken bound the capacity.
import { createUser } from '../support/factories.ts'
import { buyerOfCourse, lessonsOf, premiumMember } from '../support/learning.ts'
import { liveSessionRow } from '../support/live.ts'
import { studioCourseOf } from '../support/studio.ts'
import { expect, signInAs, test } from './fixtures.ts'

test('a registration refused because the session was just cancelled says so', async ({ page, db, baseURL }) => {
  const host = await createUser(db, { role: 'editor' })
  const session = await db
    .insertInto('live_sessions')
    .values(
      liveSessionRow({
        hostId: host.id,
        courseId: null,
        title: 'Cancelled meanwhile',
      }),
    )
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
    .values(
      liveSessionRow({
        hostId: host.id,
        courseId: null,
        title: 'One seat only',
        capacity: 1,
      }),
    )
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
    .values(
      liveSessionRow({
        hostId: host.id,
        courseId: 'modern-react-typescript',
        title: 'Recorded twice',
        starts_at: new Date(Date.now() - 3 * 86_400_000),
        recording_url: 'https://video.example.com/recorded-twice',
        recording_lesson_id: lesson?.id ?? null,
      }),
    )
    .execute()
  // A cancelled session never took place: it waits for no recording.
  await db
    .insertInto('live_sessions')
    .values(
      liveSessionRow({
        hostId: host.id,
        courseId: null,
        title: 'Called off last week',
        starts_at: new Date(Date.now() - 7 * 86_400_000),
        cancelled_at: new Date(Date.now() - 8 * 86_400_000),
      }),
    )
    .execute()
  const { user } = await premiumMember(db)
  await signInAs(page, baseURL as string, db, user)
  await page.goto('/live')
  const recording = page.getByTestId('live-session').filter({ hasText: 'Recorded twice' }).getByTestId('live-recording')
  await expect(recording).toHaveText(`Recording: ${lesson?.title} · Watch the recording`)
  await expect(recording.getByRole('link')).toHaveCount(2)
  const calledOff = page.getByTestId('live-session').filter({ hasText: 'Called off last week' })
  await expect(calledOff.getByText('Cancelled', { exact: true })).toBeVisible()
  await expect(calledOff).not.toContainText('No recording yet')
})

test('a course’s buyer finds its live session on the course page, in the player, on My courses and in the menu', async ({
  page,
  db,
  baseURL,
}) => {
  const courseId = 'modern-react-typescript'
  const host = await createUser(db, { role: 'editor' })
  const title = `Ask me anything ${Date.now().toString(36)}`
  // Two hours ahead: the course's next session, whatever other specs scheduled for it later.
  const session = await db
    .insertInto('live_sessions')
    .values(
      liveSessionRow({
        hostId: host.id,
        courseId,
        title,
        starts_at: new Date(Date.now() + 2 * 3_600_000),
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow()
  const { user } = await buyerOfCourse(db, courseId)
  await signInAs(page, baseURL as string, db, user)

  await page.goto(`/courses/${courseId}`)
  const line = page.getByTestId('upcoming-live-session')
  await expect(line).toContainText('Live session:')
  await line.getByRole('link', { name: `Register: ${title}` }).click()
  await expect(page).toHaveURL(`/live#live-${session.id}`)
  const item = page.getByRole('listitem', { name: title })
  await expect(item).toBeInViewport()
  await item.getByRole('button', { name: 'Register' }).click()
  await expect(item.getByTestId('live-status')).toHaveText('You are registered')

  await page.goto('/account#my-courses')
  await expect(page.getByTestId('my-courses').getByRole('link', { name: `You’re registered: ${title}` })).toBeVisible()
  await expect(page.getByRole('link', { name: 'See live sessions' })).toBeVisible()

  await page.goto(`/learn/${courseId}`)
  await expect(page.getByRole('link', { name: `You’re registered: ${title}` })).toBeVisible()

  await page.getByTestId('user-menu').click()
  await expect(page.getByRole('menuitem', { name: 'Live sessions' })).toHaveAttribute('href', '/live')
})

test.describe('in a browser in another time zone than the session’s', () => {
  test.use({ timezoneId: 'UTC' })

  test('the manager writes a session’s start in the session’s own zone; picks a lesson or a link; keeps the seats', async ({
    page,
    db,
    baseURL,
  }) => {
    const instructor = await createUser(db)
    const courseId = await studioCourseOf(db, instructor.id)
    const evening = await db
      .insertInto('live_sessions')
      .values(
        liveSessionRow({
          hostId: instructor.id,
          courseId,
          title: 'Evening in New York',
          starts_at: new Date('2027-03-10T23:00:00Z'), // 18:00 in New York (EST), 23:00 in this browser
          time_zone: 'America/New_York',
        }),
      )
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const name of ['Ana', 'Ben', 'Cai']) {
      const member = await createUser(db, { firstName: name })
      await db
        .insertInto('live_registrations')
        .values({ session_id: evening.id, user_id: member.id, status: 'registered', requested_at: new Date() })
        .execute()
    }
    const past = await db
      .insertInto('live_sessions')
      .values(
        liveSessionRow({
          hostId: instructor.id,
          courseId,
          title: 'Morning recorded',
          starts_at: new Date(Date.now() - 2 * 86_400_000),
        }),
      )
      .returning('id')
      .executeTakeFirstOrThrow()
    await signInAs(page, baseURL as string, db, instructor)
    await page.goto('/live/manage')
    const item = page.getByRole('listitem', { name: 'Evening in New York' })
    await expect(item).toContainText('Wednesday, 10 March 2027 at 18:00 · 60 min · America/New_York')
    // The course is a draft: no learner sees its sessions, which the list says (decision 0142).
    await expect(item).toContainText('Learners can’t see this session until the course is published.')

    // Three seats are taken: the capacity cannot go under them, and the form says so before and after.
    await item.getByRole('button', { name: 'Edit or reschedule' }).click()
    const capacity = item.getByLabel('Capacity (seats)')
    await expect(capacity).toHaveAccessibleDescription('3 seats taken: the capacity can’t go lower.')
    await capacity.fill('1')
    await item.getByRole('button', { name: 'Save changes' }).click()
    await expect(capacity).toHaveAccessibleDescription(/3 members hold seats: the capacity can’t be lower than 3/)
    expect((await db.selectFrom('live_sessions').select('capacity').where('id', '=', evening.id).execute())[0]).toEqual(
      {
        capacity: 20,
      },
    )

    // The recording is one of two: a lesson of the course or a link, chosen first.
    const recording = page.getByRole('form', { name: 'Recording of Morning recorded' })
    await expect(recording.getByRole('radio', { name: /A lesson of the course/ })).toBeChecked()
    await expect(recording.getByLabel('Lesson', { exact: true })).toBeVisible()
    await recording.getByRole('radio', { name: /A link/ }).check()
    await expect(recording.getByLabel('Lesson', { exact: true })).toHaveCount(0)
    await recording.getByLabel('Recording link (https)').fill('https://video.example.com/morning')
    await recording.getByRole('button', { name: 'Save recording' }).click()
    await expect(page.getByText('Recording attached')).toBeVisible()
    const saved = await db
      .selectFrom('live_sessions')
      .select(['recording_url', 'recording_lesson_id'])
      .where('id', '=', past.id)
      .executeTakeFirstOrThrow()
    expect(saved).toEqual({ recording_url: 'https://video.example.com/morning', recording_lesson_id: null })
  })
})

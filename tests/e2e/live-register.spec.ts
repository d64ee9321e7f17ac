// Registering for a live session (issue 34) that the host cancelled while the member's page was open: the refusal
// says why, not only "Could not register".
import { createUser } from '../support/factories.ts'
import { premiumMember } from '../support/learning.ts'
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

// Messages to instructors (issue 34), end to end with the server's test clock: a Premium member writes from the
// course page, the instructor is e-mailed a link (no reply-by-mail), answers from the studio inbox, the member sees
// the answer unread; when the membership ends the conversation stays readable and new messages are refused.
import { createUser } from '../support/factories.ts'
import { studioCourseOf } from '../support/studio.ts'
import { advanceServerClock, expect, followServerClock, serverNow, signInAs, test } from './fixtures.ts'

// The clock specs share one server whose clock the earlier ones moved on: this process follows it.
test.beforeEach(({ page, baseURL }) => followServerClock(page, baseURL as string))

const DAY = 86_400

test('a message sent, answered, and refused after the membership ends', async ({ page, db, login, baseURL }) => {
  test.setTimeout(90_000)
  const instructor = await login({ firstName: 'Ada', lastName: 'Lovelace' })
  const courseId = await studioCourseOf(db, instructor.id)
  await db.updateTable('courses').set({ status: 'published' }).where('id', '=', courseId).execute()

  // A Premium member for 30 days from now on the server's clock.
  const member = await createUser(db, { firstName: 'Mia', lastName: 'Member' })
  const began = (await serverNow(page, baseURL as string)) ?? new Date()
  await db
    .insertInto('access_grants')
    .values({
      user_id: member.id,
      kind: 'premium',
      source: 'staff',
      starts_at: began,
      ends_at: new Date(began.getTime() + 30 * DAY * 1000),
    })
    .execute()
  await page.context().clearCookies()
  await signInAs(page, baseURL as string, db, member)
  await page.goto(`/courses/${courseId}`)
  await page.getByRole('link', { name: 'Message the instructor' }).click()
  const composer = page.getByRole('form', { name: 'Write to the instructor' })
  await composer.getByLabel('Subject').fill('Stuck on lesson one')
  await composer.getByLabel('Your message').fill('Where do I find the starter files?')
  await composer.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByText('Message sent')).toBeVisible()
  await expect(page.getByTestId('message')).toContainText('Where do I find the starter files?')

  // The instructor's mail links to the conversation in the studio.
  const instructorMail = () =>
    db
      .selectFrom('mail_outbox')
      .select(['text_body', 'reply_to'])
      .where('to_address', '=', instructor.email)
      .where('kind', '=', 'instructor_message')
      .executeTakeFirst()
  await expect.poll(async () => (await instructorMail())?.text_body ?? '').toContain('/studio/messages/')
  const mail = (await instructorMail()) as { text_body: string; reply_to: string | null }
  expect(mail.reply_to).toBeNull()
  const link = /\/studio\/messages\/[0-9a-f-]{36}/.exec(mail.text_body)?.[0]
  expect(link).toBeTruthy()

  await page.context().clearCookies()
  await signInAs(page, baseURL as string, db, instructor)
  await page.goto('/studio/messages')
  const row = page.getByTestId('inbox-thread').filter({ hasText: 'Stuck on lesson one' })
  await expect(row).toContainText('(1 unread)')
  await row.getByRole('link', { name: 'Stuck on lesson one' }).click()
  await expect(page).toHaveURL(new RegExp(`${link}$`))
  await expect(page.getByTestId('message')).toContainText('Where do I find the starter files?')
  const answer = page.getByRole('form', { name: 'Answer' })
  await answer.getByLabel('Your message').fill('In the resources of lesson one.')
  await answer.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByText('Answer sent')).toBeVisible()
  await expect(page.getByTestId('message')).toHaveCount(2)

  await page.context().clearCookies()
  await signInAs(page, baseURL as string, db, member)
  await page.goto('/account/messages')
  const conversation = page.getByTestId('conversation').filter({ hasText: 'Stuck on lesson one' })
  await expect(conversation).toContainText('(1 unread)')
  await conversation.getByRole('link').click()
  await expect(page.getByTestId('message').nth(1)).toContainText('In the resources of lesson one.')

  // The membership runs out: the conversation stays, the composer gives way to the reason.
  await advanceServerClock(page, baseURL as string, 31 * DAY)
  await page.context().clearCookies()
  await signInAs(page, baseURL as string, db, member)
  await page.goto(`/account/messages/${courseId}`)
  await expect(page.getByTestId('message')).toHaveCount(2)
  await expect(page.getByTestId('messaging-refused')).toContainText(
    'Messages to instructors are for Premium members and for learners who bought this course.',
  )
  await expect(page.getByRole('form', { name: 'Write to the instructor' })).toHaveCount(0)
  // The server refuses too, whatever the page shows.
  const refused = await page.request.post(`${baseURL}/trpc/instructorMessages.send`, {
    data: { courseId, body: 'One more question' },
    headers: { origin: baseURL as string, 'content-type': 'application/json' },
  })
  expect(refused.status()).toBe(403)
})

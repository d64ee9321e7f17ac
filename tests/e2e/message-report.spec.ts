// A member's conversations with instructors (issue 34): a report the server refused keeps the form open with the
// reason written, so the member can send it again later; a long subject wraps in the list on a phone.
import type { Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { INSTRUCTOR_MESSAGE_WORDS } from '../../src-shared/schemas/instructor-messages.ts'
import { createUser } from '../support/factories.ts'
import { premiumMember } from '../support/learning.ts'
import { pageWidth } from './a11y.ts'
import { expect, signInAs, test } from './fixtures.ts'

const COURSE = 'sql-for-analysts'

/** A Premium member signed in on the course's conversation page (the course has an instructor to write to). */
async function openConversationAsMember(page: Page, db: Kysely<Database>, baseURL: string) {
  const instructor = await createUser(db)
  await db
    .insertInto('course_instructors')
    .values({ course_id: COURSE, user_id: instructor.id, role: 'co' })
    .onConflict((oc) => oc.doNothing())
    .execute()
  const { user } = await premiumMember(db)
  await signInAs(page, baseURL, db, user)
  await page.goto(`/account/messages/${COURSE}`)
  return user
}

test('a refused report keeps its reason for another try', async ({ page, db, baseURL }) => {
  const user = await openConversationAsMember(page, db, baseURL as string)
  const composer = page.getByRole('form', { name: 'Write to the instructor' })
  await composer.getByLabel('Your message').fill('Hello there')
  await composer.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByTestId('message')).toContainText('Hello there')

  await page.getByRole('button', { name: 'Report this conversation' }).click()
  const form = page.getByRole('form', { name: 'Report this conversation' })
  await form.getByLabel('What is wrong?').fill('The replies are abusive')
  // Twenty reports this hour already (the limit): the one from the form is refused.
  const thread = await db
    .selectFrom('course_message_threads')
    .select('id')
    .where('member_id', '=', user.id)
    .executeTakeFirstOrThrow()
  for (let i = 0; i < 20; i++) {
    const response = await page.request.post(`${baseURL}/trpc/instructorMessages.report`, {
      data: { threadId: thread.id, reason: `Earlier report ${i}` },
      headers: { origin: baseURL as string },
    })
    expect(response.ok()).toBe(true)
  }
  await form.getByRole('button', { name: 'Send report' }).click()
  await expect(page.getByText(INSTRUCTOR_MESSAGE_WORDS.tooMany)).toBeVisible()
  await expect(form.getByLabel('What is wrong?')).toHaveValue('The replies are abusive')
  await expect(form.getByRole('button', { name: 'Send report' })).toBeEnabled()
})

test('a long subject wraps in the member’s list of conversations on a 390 px phone', async ({ page, db, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 800 })
  await openConversationAsMember(page, db, baseURL as string)
  const composer = page.getByRole('form', { name: 'Write to the instructor' })
  await composer.getByLabel('Subject').fill('Window_functions_over_partitions_with_running_totals_and_ranks_explained')
  await composer.getByLabel('Your message').fill('Hello')
  await composer.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByTestId('message')).toContainText('Hello')
  await page.goto('/account/messages')
  await expect(page.getByTestId('conversation')).toContainText('Window_functions_over_partitions')
  expect(await pageWidth(page)).toBeLessThanOrEqual(390)
})

test('a conversation only hovered in the list stays unread; back from reading it, it is no longer counted unread', async ({
  page,
  db,
  baseURL,
}) => {
  const user = await openConversationAsMember(page, db, baseURL as string)
  const composer = page.getByRole('form', { name: 'Write to the instructor' })
  await composer.getByLabel('Subject').fill('Joins or subqueries?')
  await composer.getByLabel('Your message').fill('Which is faster?')
  await composer.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByTestId('message')).toContainText('Which is faster?')
  // The instructor answers.
  const thread = await db
    .selectFrom('course_message_threads')
    .select('id')
    .where('member_id', '=', user.id)
    .executeTakeFirstOrThrow()
  const instructor = await createUser(db, { firstName: 'Ida', lastName: 'Instructor' })
  const answer = await db
    .insertInto('course_messages')
    .values({ thread_id: thread.id, author_id: instructor.id, from_instructor: true, body: 'It depends on the plan.' })
    .returning('created_at')
    .executeTakeFirstOrThrow()
  await db
    .updateTable('course_message_threads')
    .set({ last_message_at: answer.created_at })
    .where('id', '=', thread.id)
    .execute()

  await page.goto('/account/messages')
  const conversation = page.getByTestId('conversation').filter({ hasText: 'Joins or subqueries?' })
  await expect(conversation).toContainText('(1 unread)')
  // Hovering the link loads the conversation ahead ("intent" preload): that is not reading it.
  const preloaded = page.waitForResponse((response) => response.url().includes('instructorMessages.conversation'))
  await conversation.getByRole('link').hover()
  expect((await preloaded).ok()).toBe(true)
  await page.reload()
  await expect(conversation).toContainText('(1 unread)')
  // The list and the conversation write the answer's time the same way, as the studio does (src-shared/dates.ts).
  const answeredAt = await page.evaluate(
    (iso) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso)),
    answer.created_at.toISOString(),
  )
  await expect(conversation).toContainText(`Last message ${answeredAt}`)
  await conversation.getByRole('link').click()
  await expect(page.getByTestId('message').filter({ hasText: 'It depends on the plan.' })).toContainText(
    `Ida I. (instructor) · ${answeredAt}`,
  )
  await page.getByRole('link', { name: '← All conversations' }).click()
  await expect(conversation).toBeVisible()
  await expect(conversation).not.toContainText('unread')
})

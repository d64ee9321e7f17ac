// Issue 34: the studio inbox of a course's team, not only its owner. A learner writes to the instructor of a school's
// course; the school's support member (a role that answers messages, decision 0057) and a co-instructor of that
// course see it in /studio/messages, open it and answer; neither sees the conversation of a course they are not on,
// and a finance member (no messages role) sees none. The learner reads the answer. A house course's messages are
// answered by staff from /admin/messages (decision 0140).
import type { Page } from '@playwright/test'
import { createCreator, createCreatorCourse } from '../support/creator-courses.ts'
import { createUser } from '../support/factories.ts'
import { expect, signInAs, test } from './fixtures.ts'

/** A message's time as the studio writes it in the reader's zone ('29 Nov 2026, 18:05:09'), read in the page. */
const SENT_AT = new Date('2026-11-29T18:05:09Z')
const localTime = (page: Page, at: Date) =>
  page.evaluate(
    (iso) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso)),
    at.toISOString(),
  )

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

async function switchTo(page: Page, baseURL: string, db: Parameters<typeof signInAs>[2], user: { id: string }) {
  await page.context().clearCookies()
  await signInAs(page, baseURL, db, user)
}

/** A learner with Premium since a minute ago, granted by staff (a Premium member may write about any course). */
async function premiumLearner(db: Parameters<typeof signInAs>[2], firstName: string, lastName: string) {
  const learner = await createUser(db, { firstName, lastName })
  await db
    .insertInto('access_grants')
    .values({ user_id: learner.id, kind: 'premium', source: 'staff', starts_at: new Date(Date.now() - 60_000) })
    .execute()
  return learner
}

test('a school’s support member and a co-instructor answer a learner in the studio inbox, and see only their courses', async ({
  page,
  db,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const tag = unique()
  // A school (its owner a creator) with a published course; another creator's course beside it.
  const owner = await createCreator(db, { plan: 'pro' })
  const course = await createCreatorCourse(db, owner, { status: 'published', title: `Glazing ${tag}` })
  const schoolId = (
    (await db.selectFrom('schools').select('id').where('owner_id', '=', owner.id).executeTakeFirst()) ??
    (await db
      .insertInto('schools')
      .values({ owner_id: owner.id, name: `Glaze School ${tag}`, slug: `glaze-${tag}` })
      .returning('id')
      .executeTakeFirstOrThrow())
  ).id
  const support = await createUser(db, { firstName: 'Sam', lastName: 'Support' })
  const finance = await createUser(db, { firstName: 'Fin', lastName: 'Ance' })
  await db
    .insertInto('school_members')
    .values([
      { school_id: schoolId, user_id: support.id, role: 'support' },
      { school_id: schoolId, user_id: finance.id, role: 'finance' },
    ])
    .execute()
  const coInstructor = await createUser(db, { firstName: 'Cody', lastName: 'Instructor' })
  await db
    .insertInto('course_instructors')
    .values({ course_id: course.id, user_id: coInstructor.id, role: 'co' })
    .execute()
  const otherOwner = await createCreator(db)
  const otherCourse = await createCreatorCourse(db, otherOwner, { status: 'published', title: `Weaving ${tag}` })

  // A Premium learner: one conversation about the school's course (from its page), one about the other course.
  const learner = await premiumLearner(db, 'Lea', 'Learner')
  await switchTo(page, baseURL as string, db, learner)
  for (const [courseId, subject] of [
    [otherCourse.id, `Loom question ${tag}`],
    [course.id, `Kiln question ${tag}`],
  ] as const) {
    await page.goto(`/courses/${courseId}`)
    await page.getByRole('link', { name: 'Message the instructor' }).click()
    const composer = page.getByRole('form', { name: 'Write to the instructor' })
    await composer.getByLabel('Subject').fill(subject)
    await composer.getByLabel('Your message').fill(`${subject}: which temperature?`)
    await composer.getByRole('button', { name: 'Send message' }).click()
    await expect(page.getByText('Message sent')).toBeVisible()
  }

  // The support member: the school course's conversation, unread; not the other course's. They answer it.
  await switchTo(page, baseURL as string, db, support)
  await page.goto('/studio/messages')
  const inbox = page.getByRole('region', { name: 'Conversations' })
  const kiln = inbox.getByTestId('inbox-thread').filter({ hasText: `Kiln question ${tag}` })
  await expect(kiln).toContainText('(1 unread)')
  await expect(kiln).toContainText(`Lea L. · Glazing ${tag}`)
  await expect(inbox.getByTestId('inbox-thread').filter({ hasText: tag })).toHaveCount(1)
  await expect(inbox.getByText(`Loom question ${tag}`)).toHaveCount(0)
  await kiln.getByRole('link', { name: `Kiln question ${tag}` }).click()
  await expect(page.getByTestId('message')).toContainText(`Kiln question ${tag}: which temperature?`)
  const answer = page.getByRole('form', { name: 'Answer' })
  await answer.getByLabel('Your message').fill('Cone 6, about 1220 °C.')
  await answer.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByText('Answer sent')).toBeVisible()
  await expect(page.getByTestId('message')).toHaveCount(2)

  // The co-instructor sees the same conversation (with the answer) and only it; they answer too.
  await switchTo(page, baseURL as string, db, coInstructor)
  await page.goto('/studio/messages')
  await expect(inbox.getByTestId('inbox-thread').filter({ hasText: tag })).toHaveCount(1)
  await inbox.getByRole('link', { name: `Kiln question ${tag}` }).click()
  await expect(page.getByTestId('message')).toHaveCount(2)
  await answer.getByLabel('Your message').fill('And let it cool overnight.')
  await answer.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByText('Answer sent')).toBeVisible()
  await expect(page.getByTestId('message')).toHaveCount(3)
  // Another course's conversation by its address: not found for them.
  const loom = await db
    .selectFrom('course_message_threads')
    .select('id')
    .where('course_id', '=', otherCourse.id)
    .where('member_id', '=', learner.id)
    .executeTakeFirstOrThrow()
  await page.goto(`/studio/messages/${loom.id}`)
  await expect(page.getByText(/Conversation not found|Could not load this conversation/).first()).toBeVisible()
  await expect(page.getByText(`Loom question ${tag}: which temperature?`)).toHaveCount(0)

  // A finance member of the school has no messages role: nothing of this school's in their inbox.
  await switchTo(page, baseURL as string, db, finance)
  await page.goto('/studio/messages')
  await expect(page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible()
  await expect(page.getByText(`Kiln question ${tag}`)).toHaveCount(0)

  // The learner reads both answers in their own conversation.
  await switchTo(page, baseURL as string, db, learner)
  await page.goto('/account/messages')
  const conversation = page.getByTestId('conversation').filter({ hasText: `Kiln question ${tag}` })
  await expect(conversation).toContainText('(2 unread)')
  await conversation.getByRole('link').click()
  await expect(page.getByTestId('message').nth(1)).toContainText('Cone 6, about 1220 °C.')
  await expect(page.getByTestId('message').nth(2)).toContainText('And let it cool overnight.')
})

test('a house course’s message reaches staff, who answer it from the admin inbox; the learner reads the answer', async ({
  page,
  db,
  baseURL,
}) => {
  test.setTimeout(60_000)
  const tag = unique()
  const learner = await premiumLearner(db, 'Hal', 'House')
  await switchTo(page, baseURL as string, db, learner)
  // A seeded course nobody teaches on the site (decision 0140), and no other spec gives a team.
  await page.goto('/courses/bookkeeping-small-business')
  await page.getByRole('link', { name: 'Message the instructor' }).click()
  const composer = page.getByRole('form', { name: 'Write to the instructor' })
  await composer.getByLabel('Subject').fill(`Joins ${tag}`)
  await composer.getByLabel('Your message').fill('Is there a cheat sheet?')
  await composer.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByText('Message sent')).toBeVisible()

  const editor = await createUser(db, { role: 'editor', firstName: 'Edna', lastName: 'Staff' })
  await switchTo(page, baseURL as string, db, editor)
  await page.goto('/admin/messages')
  const house = page.getByRole('region', { name: 'House courses' })
  const thread = house.getByTestId('inbox-thread').filter({ hasText: `Joins ${tag}` })
  await expect(thread).toContainText('(1 unread)')
  await expect(thread).toContainText('Hal H.')
  await thread.getByRole('link', { name: `Joins ${tag}` }).click()
  await expect(page.getByTestId('message')).toContainText('Is there a cheat sheet?')
  const answer = page.getByRole('form', { name: 'Answer' })
  await answer.getByLabel('Your message').fill('Yes: lesson 4’s resources.')
  await answer.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByText('Answer sent')).toBeVisible()
  await page.getByRole('link', { name: '← Messages' }).click()
  await expect(house.getByTestId('inbox-thread').filter({ hasText: `Joins ${tag}` })).not.toContainText('unread')

  await switchTo(page, baseURL as string, db, learner)
  await page.goto('/account/messages')
  await page
    .getByTestId('conversation')
    .filter({ hasText: `Joins ${tag}` })
    .getByRole('link')
    .click()
  await expect(page.getByTestId('message').nth(1)).toContainText('Yes: lesson 4’s resources.')
})

test('an answer sent with the keyboard leaves focus in the emptied message box, ready for the next', async ({
  page,
  db,
  baseURL,
}) => {
  const owner = await createCreator(db, { plan: 'pro' })
  const course = await createCreatorCourse(db, owner, { status: 'published', title: `Kilns ${unique()}` })
  const learner = await createUser(db, { firstName: 'Lena', lastName: 'Learner' })
  const thread = await db
    .insertInto('course_message_threads')
    .values({ course_id: course.id, member_id: learner.id, subject: 'Which clay first?' })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('course_messages')
    .values({ thread_id: thread.id, author_id: learner.id, from_instructor: false, body: 'Stoneware or porcelain?' })
    .execute()

  await signInAs(page, baseURL as string, db, owner)
  await page.goto(`/studio/messages/${thread.id}`)
  const box = page.getByRole('form', { name: 'Answer' }).getByLabel('Your message')
  await box.fill('Stoneware: it forgives more.')
  await page.getByRole('button', { name: 'Send message' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('message').filter({ hasText: 'Stoneware: it forgives more.' })).toBeVisible()
  await expect(box).toHaveValue('')
  await expect(box).toBeFocused()
  await page.keyboard.type('And wedge it well.')
  await expect(box).toHaveValue('And wedge it well.')
})

test('a conversation only hovered in the inbox stays unread; back from reading it, it is no longer counted unread', async ({
  page,
  db,
  baseURL,
}) => {
  const owner = await createCreator(db, { plan: 'pro' })
  const course = await createCreatorCourse(db, owner, { status: 'published', title: `Wheels ${unique()}` })
  const learner = await createUser(db, { firstName: 'Lena', lastName: 'Learner' })
  const thread = await db
    .insertInto('course_message_threads')
    .values({ course_id: course.id, member_id: learner.id, subject: 'Centering the clay', last_message_at: SENT_AT })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('course_messages')
    .values({
      thread_id: thread.id,
      author_id: learner.id,
      from_instructor: false,
      body: 'It keeps wobbling.',
      created_at: SENT_AT,
    })
    .execute()

  await signInAs(page, baseURL as string, db, owner)
  await page.goto('/studio/messages')
  const conversation = page.getByTestId('inbox-thread').filter({ hasText: 'Centering the clay' })
  await expect(conversation).toContainText('(1 unread)')
  // Hovering the link loads the conversation ahead ("intent" preload): that is not reading it.
  const preloaded = page.waitForResponse((response) => response.url().includes('instructorMessages.thread'))
  await conversation.getByRole('link', { name: 'Centering the clay' }).hover()
  expect((await preloaded).ok()).toBe(true)
  await page.reload()
  await expect(conversation).toContainText('(1 unread)')
  // The inbox and the conversation write the message's time the same way (the studio's dates, src-shared/dates.ts).
  const sentAt = await localTime(page, SENT_AT)
  await expect(conversation).toContainText(sentAt)
  await conversation.getByRole('link', { name: 'Centering the clay' }).click()
  await expect(page.getByRole('heading', { name: 'Centering the clay', level: 1 })).toBeVisible()
  await expect(page.getByTestId('message')).toContainText(`Lena L. · ${sentAt}`)
  await page.getByRole('link', { name: '← Inbox' }).click()
  await expect(page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible()
  await expect(conversation).toBeVisible()
  await expect(conversation).not.toContainText('unread')
})

test('with the keyboard, closing a conversation, blocking its sender and the digest setting keep focus on the control', async ({
  page,
  db,
  baseURL,
}) => {
  const owner = await createCreator(db, { plan: 'pro' })
  const course = await createCreatorCourse(db, owner, { status: 'published', title: `Glazes ${unique()}` })
  const learner = await createUser(db, { firstName: 'Lena', lastName: 'Learner' })
  const thread = await db
    .insertInto('course_message_threads')
    .values({ course_id: course.id, member_id: learner.id, subject: 'Crawling glaze' })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('course_messages')
    .values({ thread_id: thread.id, author_id: learner.id, from_instructor: false, body: 'It pulls away.' })
    .execute()

  await signInAs(page, baseURL as string, db, owner)
  await page.goto(`/studio/messages/${thread.id}`)
  // Each button changes its label once done: it stays focused meanwhile (aria-disabled, not disabled).
  for (const [press, then] of [
    ['Close conversation', 'Reopen conversation'],
    ['Block sender', 'Unblock sender'],
  ] as const) {
    await page.getByRole('button', { name: press }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('button', { name: then })).toBeFocused()
  }
  await page.getByRole('link', { name: '← Inbox' }).click()
  const digest = page.getByLabel('One daily digest instead of an e-mail per message')
  await digest.focus()
  await page.keyboard.press('Space')
  await expect(page.getByText('You will get one e-mail a day')).toBeVisible()
  await expect(digest).toBeChecked()
  await expect(digest).toBeFocused()
})

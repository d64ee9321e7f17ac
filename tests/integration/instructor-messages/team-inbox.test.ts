// Issue 34's remainder: the studio inbox of a course's team, and courses nobody answers. A school member whose role
// answers messages (support, instructor) lists and opens the threads of the school's courses without being a
// creator; a finance member and a stranger see none of them. A seeded house course has no instructor: staff (editors
// and up) answer its messages from the admin's house inbox (decision 0140).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureSchool } from '../../../src-server/creators/schools.ts'
import { eraseAccount } from '../../../src-server/flows/account-erasure.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { staffEmail } from '../../../src-server/mail/staff-address.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { ACCOUNT_DELETION_COOL_OFF_DAYS } from '../../../src-shared/retention.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { buyerOfCourse, premiumMember } from '../../support/learning.ts'
import { mailsTo } from '../../support/outbox.ts'

let database: DatabaseHandle
const db = () => database.db
const HOUSE = 'modern-react-typescript'

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

describe('the studio inbox of a course’s team', () => {
  it('support and instructor members answer the school’s threads; finance and strangers see none', async () => {
    const owner = await createCreator(db(), { plan: 'pro' })
    const course = await createCreatorCourse(db(), owner, { title: 'Team Inbox', status: 'published' })
    const school = await ensureSchool(db(), owner.id)
    const [support, instructor, finance, stranger] = await Promise.all([
      createUser(db()),
      createUser(db()),
      createUser(db()),
      createUser(db()),
    ])
    await db()
      .insertInto('school_members')
      .values([
        { school_id: school.id, user_id: support.id, role: 'support', added_by: owner.id },
        { school_id: school.id, user_id: instructor.id, role: 'instructor', added_by: owner.id },
        { school_id: school.id, user_id: finance.id, role: 'finance', added_by: owner.id },
      ])
      .execute()
    const { user: learner } = await buyerOfCourse(db(), course.id)
    const { threadId } = await (await callerAs(db(), learner)).instructorMessages.send({
      courseId: course.id,
      subject: 'Chapter 2',
      body: 'Where is the code?',
    })

    for (const member of [support, instructor]) {
      const api = await callerAs(db(), member)
      expect((await api.instructorMessages.inbox({ filter: 'all' })).threads.map((t) => t.id)).toEqual([threadId])
      expect((await api.instructorMessages.thread({ threadId })).messages.map((m) => m.body)).toEqual([
        'Where is the code?',
      ])
    }
    await (await callerAs(db(), support)).instructorMessages.reply({ threadId, body: 'In the resources.' })

    for (const outsider of [finance, stranger]) {
      const api = await callerAs(db(), outsider)
      expect((await api.instructorMessages.inbox({ filter: 'all' })).threads).toEqual([])
      await expect(api.instructorMessages.thread({ threadId })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    }
  })
})

describe('a house course’s messages (decision 0140)', () => {
  it('staff editors answer them from the house inbox; the member hears back; nobody else may', async () => {
    const { user } = await premiumMember(db())
    const member = await callerAs(db(), user)
    expect(await member.instructorMessages.conversation({ courseId: HOUSE })).toMatchObject({ canSend: true })
    const { threadId } = await member.instructorMessages.send({ courseId: HOUSE, body: 'Is chapter 3 up to date?' })
    // Nobody teaches the course: the staff address gets the mail, with the admin page's link.
    const [staffMail] = (await mailsTo(db(), staffEmail())).filter((m) => m.text_body.includes(threadId))
    expect(staffMail?.text_body).toContain(`/admin/messages/${threadId}`)
    expect(staffMail?.text_body).toContain('Is chapter 3 up to date?')

    const [editorUser, viewerUser, creatorUser] = await Promise.all([
      createUser(db(), { role: 'editor', firstName: 'Eddie', lastName: 'Editor' }),
      createUser(db(), { role: 'viewer' }),
      createCreator(db()),
    ])
    const editor = await callerAs(db(), editorUser)
    const inbox = await editor.admin.instructorMessages.houseInbox({ filter: 'unread' })
    expect(inbox.threads.map((t) => t.id)).toContain(threadId)
    expect((await editor.instructorMessages.thread({ threadId })).messages.map((m) => m.body)).toEqual([
      'Is chapter 3 up to date?',
    ])
    await editor.instructorMessages.reply({ threadId, body: 'Yes, revised last month.' })
    const answer = await member.instructorMessages.conversation({ courseId: HOUSE })
    expect(answer.thread?.messages.at(-1)).toMatchObject({ body: 'Yes, revised last month.', fromInstructor: true })
    expect((await mailsTo(db(), user.email)).map((m) => m.subject)).toContainEqual(
      expect.stringMatching(/^Eddie E\. answered your message about Modern React with TypeScript/),
    )
    // Staff write to the learner as the course's instructors: they are not members of it.
    expect(await editor.instructorMessages.conversation({ courseId: HOUSE })).toMatchObject({ canSend: false })

    // A viewer and a creator of another course have no part in it.
    const viewer = await callerAs(db(), viewerUser)
    await expect(viewer.instructorMessages.thread({ threadId })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(viewer.admin.instructorMessages.houseInbox({ filter: 'all' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    const creator = await callerAs(db(), creatorUser)
    await expect(creator.instructorMessages.reply({ threadId, body: 'Hi' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
  })

  it('a creator’s course stays its instructors’: staff neither list nor answer its threads', async () => {
    const owner = await createCreator(db())
    const course = await createCreatorCourse(db(), owner, { title: 'Answered by its creator', status: 'published' })
    const { user } = await buyerOfCourse(db(), course.id)
    const { threadId } = await (await callerAs(db(), user)).instructorMessages.send({
      courseId: course.id,
      body: 'Hello?',
    })
    const editor = await callerAs(db(), await createUser(db(), { role: 'admin' }))
    const inbox = await editor.admin.instructorMessages.houseInbox({ filter: 'all' })
    expect(inbox.threads.map((t) => t.id)).not.toContain(threadId)
    await expect(editor.instructorMessages.thread({ threadId })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect((await mailsTo(db(), staffEmail())).some((m) => m.text_body.includes(threadId))).toBe(false)
  })

  it('an erased creator’s course becomes the house’s: its learners’ threads reach the staff inbox', async () => {
    const owner = await createCreator(db())
    const course = await createCreatorCourse(db(), owner, { title: 'Orphaned Course', status: 'published' })
    // Free, so no sale credits the creator (their earnings would hold the erasure until paid out).
    await db().updateTable('courses').set({ price_minor: 0 }).where('id', '=', course.id).execute()
    const learner = await createUser(db())
    const member = await callerAs(db(), learner)
    await member.purchases.enrolFree({ courseId: course.id })
    const { threadId } = await member.instructorMessages.send({ courseId: course.id, body: 'Anyone there?' })
    const editor = await callerAs(db(), await createUser(db(), { role: 'editor' }))
    await expect(editor.instructorMessages.thread({ threadId })).rejects.toMatchObject({ code: 'NOT_FOUND' })

    await (await callerAs(db(), owner)).privacy.requestDeletion({ password: owner.password })
    await advanceClock(ACCOUNT_DELETION_COOL_OFF_DAYS * 86_400 + 3600)
    try {
      const deps = { db: db(), storage: createLocalStorage('/tmp/team-inbox-erasure'), publicUrl: 'http://x.test' }
      expect(await eraseAccount({ ...deps, log: { info() {}, error() {} } }, owner.id)).toBe(true)
    } finally {
      resetClock()
    }
    // The course keeps its (anonymised) instructor row, but nobody is behind it: staff list and answer its threads.
    const inbox = await editor.admin.instructorMessages.houseInbox({ filter: 'all' })
    expect(inbox.threads.map((t) => t.id)).toContain(threadId)
    await editor.instructorMessages.reply({ threadId, body: 'We look after this course now.' })
    const answer = await member.instructorMessages.conversation({ courseId: course.id })
    expect(answer.thread?.messages.at(-1)).toMatchObject({ body: 'We look after this course now.' })
  })
})

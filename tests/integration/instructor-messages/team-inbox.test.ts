// Issue 34's remainder: the studio inbox of a course's team, and courses nobody answers. A school member whose role
// answers messages (support, instructor) lists and opens the threads of the school's courses without being a
// creator; a finance member and a stranger see none of them. A seeded house course has no instructor, so its page
// does not offer "Message the instructor" (takesMessages false) and a message to it is refused; a creator's does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureSchool } from '../../../src-server/creators/schools.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createCreator, createCreatorCourse } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { buyerOfCourse, premiumMember } from '../../support/learning.ts'

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

describe('a course nobody answers', () => {
  it('a house course offers no message link and refuses a message; a creator’s course offers it', async () => {
    const visitor = await callerAs(db(), null)
    expect((await visitor.catalog.course({ id: HOUSE }))?.takesMessages).toBe(false)
    const owner = await createCreator(db())
    const course = await createCreatorCourse(db(), owner, { title: 'Answered', status: 'published' })
    expect((await visitor.catalog.course({ id: course.id }))?.takesMessages).toBe(true)

    const { user } = await premiumMember(db())
    const member = await callerAs(db(), user)
    expect(await member.instructorMessages.conversation({ courseId: HOUSE })).toMatchObject({ canSend: false })
    await expect(member.instructorMessages.send({ courseId: HOUSE, body: 'Hello?' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
  })
})

// Messages to instructors (issue 34): who may write (Premium members and holders of the course, not strangers),
// a member whose Premium or purchase ended keeps reading but may not write, blocks and closed threads refuse, the
// rate limit per sender, unread counts, mails with a link (no reply-by-mail), ownership (an instructor never reads
// another course's threads), staff read reported threads only, attachments by the private-file rules, the digest.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { revoke } from '../../../src-server/access/ledger.ts'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { sendMessageDigests } from '../../../src-server/flows/instructor-messages-digest.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import { INSTRUCTOR_MESSAGE_WORDS } from '../../../src-shared/schemas/instructor-messages.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse, premiumMember } from '../../support/learning.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile({ env: { TRUST_PROXY: true, STAFF_2FA: 'required' } })
const COURSE = 'modern-react-typescript'
const OTHER = 'sql-for-analysts'
let instructor: TestUser
let otherInstructor: TestUser

afterEach(() => resetClock())

beforeAll(async () => {
  instructor = await createUser(site.db, { firstName: 'Ina', lastName: 'Structor' })
  otherInstructor = await createUser(site.db, { firstName: 'Otto', lastName: 'Other' })
  await site.db
    .insertInto('course_instructors')
    .values([
      { course_id: COURSE, user_id: instructor.id, role: 'co' },
      { course_id: OTHER, user_id: otherInstructor.id, role: 'co' },
    ])
    .execute()
})

const as = (user: TestUser | null) => callerAs(site.db, user)
const mails = (to: string, kind: string) =>
  site.db
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body', 'reply_to'])
    .where('to_address', '=', to)
    .where('kind', '=', kind)
    .execute()

describe('writing to the instructor', () => {
  it('a buyer writes, the instructor is mailed with a link, answers, and the buyer sees it unread', async () => {
    const { user } = await buyerOfCourse(site.db, COURSE)
    const me = await as(user)
    const before = await me.instructorMessages.conversation({ courseId: COURSE })
    expect(before).toMatchObject({ thread: null, canSend: true, refusal: null })
    const { threadId } = await me.instructorMessages.send({ courseId: COURSE, subject: 'Generics', body: 'How?' })
    const toInstructor = await mails(instructor.email, 'instructor_message')
    expect(toInstructor.at(-1)?.text_body).toContain(`/studio/messages/${threadId}`)
    expect(toInstructor.at(-1)?.text_body).toContain('replies to this e-mail are not read')
    expect(toInstructor.at(-1)?.reply_to).toBeNull()

    const teacher = await as(instructor)
    const inbox = await teacher.instructorMessages.inbox({ filter: 'unread' })
    expect(inbox.threads.find((t) => t.id === threadId)).toMatchObject({ subject: 'Generics', unread: 1 })
    const thread = await teacher.instructorMessages.thread({ threadId })
    expect(thread.messages.map((m) => m.body)).toEqual(['How?'])
    // Loading the thread is not reading it (the router loads it when its link is only hovered): the page marks it.
    expect((await teacher.instructorMessages.inbox({ filter: 'unread' })).threads.map((t) => t.id)).toContain(threadId)
    await teacher.instructorMessages.markRead({ threadId })
    expect((await teacher.instructorMessages.inbox({ filter: 'unread' })).threads.map((t) => t.id)).not.toContain(
      threadId,
    )
    await teacher.instructorMessages.reply({ threadId, body: 'Like this.' })
    expect((await mails(user.email, 'instructor_message_reply')).at(-1)?.text_body).toContain(
      `/account/messages/${COURSE}`,
    )
    expect((await me.instructorMessages.mine()).find((t) => t.id === threadId)?.unread).toBe(1)
    const after = await me.instructorMessages.conversation({ courseId: COURSE })
    expect(after.thread?.messages.map((m) => [m.body, m.fromInstructor])).toEqual([
      ['How?', false],
      ['Like this.', true],
    ])
    expect((await me.instructorMessages.mine()).find((t) => t.id === threadId)?.unread).toBe(1)
    await me.instructorMessages.markRead({ threadId })
    expect((await me.instructorMessages.mine()).find((t) => t.id === threadId)?.unread).toBe(0)
    // One thread per member and course: a second message joins it.
    const again = await me.instructorMessages.send({ courseId: COURSE, body: 'Thanks!' })
    expect(again.threadId).toBe(threadId)
  })

  it('a stranger and the course’s own instructor are refused; a Premium member may write about any published course', async () => {
    const stranger = await as(await createUser(site.db))
    await expect(stranger.instructorMessages.send({ courseId: COURSE, body: 'Hi' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: INSTRUCTOR_MESSAGE_WORDS.notHolder,
    })
    // Someone who never wrote is not told their "earlier messages stay readable".
    const view = await stranger.instructorMessages.conversation({ courseId: COURSE })
    expect(view).toMatchObject({ thread: null, canSend: false, refusal: INSTRUCTOR_MESSAGE_WORDS.notHolder })
    expect(view.refusal).not.toMatch(/earlier messages/)
    await expect(
      (await as(instructor)).instructorMessages.send({ courseId: COURSE, body: 'Hi' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', message: INSTRUCTOR_MESSAGE_WORDS.ownCourse })
    await expect((await as(null)).instructorMessages.send({ courseId: COURSE, body: 'Hi' })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    })
    const { user } = await premiumMember(site.db)
    const member = await as(user)
    await member.instructorMessages.send({ courseId: OTHER, body: 'Premium question' })
    expect((await member.instructorMessages.mine()).map((t) => t.courseId)).toEqual([OTHER])
  })

  it('when Premium ends the thread stays readable and new messages are refused with a clear message', async () => {
    const { user } = await premiumMember(site.db)
    const member = await as(user)
    const { threadId } = await member.instructorMessages.send({ courseId: COURSE, body: 'Before it ends' })
    await (await as(instructor)).instructorMessages.reply({ threadId, body: 'Answer' })
    // The month paid for runs out, not renewed.
    await advanceClock(45 * 86_400)
    const view = await member.instructorMessages.conversation({ courseId: COURSE })
    expect(view.thread?.messages.map((m) => m.body)).toEqual(['Before it ends', 'Answer'])
    expect(view).toMatchObject({ canSend: false, refusal: INSTRUCTOR_MESSAGE_WORDS.notHolderAnymore })
    await expect(member.instructorMessages.send({ courseId: COURSE, body: 'After' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: INSTRUCTOR_MESSAGE_WORDS.notHolderAnymore,
    })
  })

  it('a refunded buyer keeps reading and may no longer write', async () => {
    const { user, orderId } = await buyerOfCourse(site.db, COURSE)
    const me = await as(user)
    await me.instructorMessages.send({ courseId: COURSE, body: 'Mine' })
    await revoke(site.db, { orderId }, 'refund')
    expect((await me.instructorMessages.conversation({ courseId: COURSE })).thread?.messages).toHaveLength(1)
    await expect(me.instructorMessages.send({ courseId: COURSE, body: 'More' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
  })

  it('a course not yet on sale is not found to members, its title and instructor included', async () => {
    const member = await as((await premiumMember(site.db)).user)
    for (const status of ['draft', 'in_review', 'changes_requested'] as const) {
      await site.db.updateTable('courses').set({ status }).where('id', '=', OTHER).execute()
      try {
        await expect(member.instructorMessages.conversation({ courseId: OTHER })).rejects.toMatchObject({
          code: 'NOT_FOUND',
        })
        // Its instructor still reads the course's side.
        expect((await (await as(otherInstructor)).instructorMessages.conversation({ courseId: OTHER })).course.id).toBe(
          OTHER,
        )
      } finally {
        await site.db.updateTable('courses').set({ status: 'published' }).where('id', '=', OTHER).execute()
      }
    }
  })

  it('rate limits messages per sender', async () => {
    const me = await as((await buyerOfCourse(site.db, COURSE)).user)
    for (let i = 0; i < 10; i++) await me.instructorMessages.send({ courseId: COURSE, body: `m${i}` })
    await expect(me.instructorMessages.send({ courseId: COURSE, body: 'one more' })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: INSTRUCTOR_MESSAGE_WORDS.tooMany,
    })
  })
})

describe('the instructors’ side', () => {
  it('an instructor cannot read, mark read, answer, close or block another course’s threads', async () => {
    const { user } = await buyerOfCourse(site.db, COURSE)
    const { threadId } = await (await as(user)).instructorMessages.send({ courseId: COURSE, body: 'Private' })
    const other = await as(otherInstructor)
    expect((await other.instructorMessages.inbox({ filter: 'all' })).threads.map((t) => t.id)).not.toContain(threadId)
    await expect(other.instructorMessages.thread({ threadId })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(other.instructorMessages.reply({ threadId, body: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(other.instructorMessages.close({ threadId, closed: true })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(other.instructorMessages.block({ threadId, blocked: true })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(other.instructorMessages.markRead({ threadId })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    // Another learner neither.
    const nosy = await as((await buyerOfCourse(site.db, COURSE)).user)
    await expect(nosy.instructorMessages.thread({ threadId })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(nosy.instructorMessages.markRead({ threadId })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('a closed thread and a blocked sender are refused; staff see the block', async () => {
    const { user } = await buyerOfCourse(site.db, COURSE)
    const me = await as(user)
    const teacher = await as(instructor)
    const { threadId } = await me.instructorMessages.send({ courseId: COURSE, body: 'First' })
    await teacher.instructorMessages.close({ threadId, closed: true })
    await expect(me.instructorMessages.send({ courseId: COURSE, body: 'Again' })).rejects.toMatchObject({
      message: INSTRUCTOR_MESSAGE_WORDS.closed,
    })
    await teacher.instructorMessages.close({ threadId, closed: false })
    await teacher.instructorMessages.block({ threadId, blocked: true, reason: 'Spam' })
    await expect(me.instructorMessages.send({ courseId: COURSE, body: 'Again' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: INSTRUCTOR_MESSAGE_WORDS.blocked,
    })
    expect((await me.instructorMessages.conversation({ courseId: COURSE })).thread?.messages).toHaveLength(1)
    const staff = await as(await createUser(site.db, { role: 'editor' }))
    const { blocks } = await staff.admin.instructorMessages.overview()
    expect(blocks.find((b) => b.member === user.email)).toMatchObject({ blockedBy: instructor.email, reason: 'Spam' })
    await teacher.instructorMessages.block({ threadId, blocked: false })
    await me.instructorMessages.send({ courseId: COURSE, body: 'Unblocked' })
  })
})

describe('reports', () => {
  it('staff read a thread only once it is reported; viewers and customers never', async () => {
    const { user } = await buyerOfCourse(site.db, COURSE)
    const me = await as(user)
    const { threadId } = await me.instructorMessages.send({ courseId: COURSE, body: 'Rude reply follows' })
    const staff = await as(await createUser(site.db, { role: 'editor' }))
    await expect(staff.admin.instructorMessages.thread({ threadId })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(
      (await as(await createUser(site.db))).instructorMessages.report({ threadId, reason: 'x' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await me.instructorMessages.report({ threadId, reason: 'The answer was abusive' })
    const { reports } = await staff.admin.instructorMessages.overview()
    expect(reports.find((r) => r.threadId === threadId)).toMatchObject({ byMember: true })
    expect((await staff.admin.instructorMessages.thread({ threadId })).messages.map((m) => m.body)).toEqual([
      'Rude reply follows',
    ])
    const viewer = await as(await createUser(site.db, { role: 'viewer' }))
    await expect(viewer.admin.instructorMessages.thread({ threadId })).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })
})

describe('attachments', () => {
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
  async function cookieOf(user: TestUser) {
    const { token } = await createSessionToken(site.db, user.id)
    return `${SESSION_COOKIE}=${token}`
  }
  async function upload(cookie: string, bytes: Buffer, name: string, from: string) {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(bytes)]), name)
    const response = await fetch(`${site.baseUrl}/api/instructor-messages/${COURSE}/files`, {
      method: 'POST',
      headers: { cookie, origin: 'http://storefront.test', 'x-forwarded-for': from },
      body: form,
    })
    return { status: response.status, body: (await response.json()) as { id: string; message?: string } }
  }

  it('a file is checked by its bytes, sent with a message and read only by the thread’s two sides', async () => {
    const { user } = await buyerOfCourse(site.db, COURSE)
    const cookie = await cookieOf(user)
    const refused = await upload(cookie, Buffer.from('MZ not a document'), 'x.pdf', '10.9.0.1')
    expect(refused.status).toBe(400)
    const stranger = await cookieOf(await createUser(site.db))
    expect((await upload(stranger, PDF, 'notes.pdf', '10.9.0.2')).status).toBe(403)
    const { status, body } = await upload(cookie, PDF, 'notes.pdf', '10.9.0.1')
    expect(status).toBe(200)
    const me = await as(user)
    await me.instructorMessages.send({ courseId: COURSE, body: 'See attached', fileIds: [body.id] })
    const view = await me.instructorMessages.conversation({ courseId: COURSE })
    const file = view.thread?.messages.at(-1)?.files[0]
    expect(file?.name).toBe('notes.pdf')
    const get = (c: string) => fetch(`${site.baseUrl}${file?.url}`, { headers: { cookie: c } })
    expect((await get(cookie)).status).toBe(200)
    expect((await get(await cookieOf(instructor))).status).toBe(200)
    expect((await get(await cookieOf(otherInstructor))).status).toBe(404)
    expect((await get(stranger)).status).toBe(404)
    // Staff read a reported thread's files; an admin without the second factor STAFF_2FA requires does not.
    await me.instructorMessages.report({ threadId: view.thread?.id ?? '', reason: 'Spam' })
    expect((await get(await cookieOf(await createUser(site.db, { role: 'editor' })))).status).toBe(200)
    expect((await get(await cookieOf(await createUser(site.db, { role: 'admin' })))).status).toBe(404)
    // A file already sent cannot be attached again.
    await expect(
      me.instructorMessages.send({ courseId: COURSE, body: 'Again', fileIds: [body.id] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })
})

describe('the daily digest', () => {
  it('replaces the per-message mails for who chose it, once a day, with the unread conversations', async () => {
    const digestInstructor = await createUser(site.db)
    await site.db
      .insertInto('course_instructors')
      .values({ course_id: OTHER, user_id: digestInstructor.id, role: 'co' })
      .execute()
    const teacher = await as(digestInstructor)
    await teacher.instructorMessages.setMailSetting({ dailyDigest: true })
    expect(await teacher.instructorMessages.mailSetting()).toEqual({ dailyDigest: true })
    const { user } = await buyerOfCourse(site.db, OTHER)
    const { threadId } = await (await as(user)).instructorMessages.send({ courseId: OTHER, body: 'Digest me' })
    expect(await mails(digestInstructor.email, 'instructor_message')).toHaveLength(0)
    expect(await mails(otherInstructor.email, 'instructor_message')).not.toHaveLength(0)
    await advanceClock(86_400)
    const baseUrl = 'https://shop.test'
    expect(await sendMessageDigests(site.db, baseUrl)).toBeGreaterThanOrEqual(1)
    await sendMessageDigests(site.db, baseUrl)
    const digests = await mails(digestInstructor.email, 'instructor_message_digest')
    expect(digests).toHaveLength(1)
    expect(digests[0]?.text_body).toContain(`https://shop.test/studio/messages/${threadId}`)
  })
})

// Messages to instructors (issue 34). Who may do what:
// - write to a course's instructors: a Premium member (any published course) or a holder of the course (a buyer,
//   a free or staff-granted enrolment), unless blocked in that course or the thread is closed; not the course's own
//   instructors (they answer from the studio). One thread per member and course.
// - read a thread: its member, always (a member whose Premium or purchase ended keeps reading, and is refused only
//   new messages); the course's instructors (owner and co-instructors) — anyone else is answered "not found".
//   Reading never marks it read: the page marks it (markThreadRead) once the conversation is on screen.
// - answer, close, block: the course's instructors. Report: the thread's member or its instructors.
// - staff (editor and up): read reported threads only, and see every block.
// Sending is rate limited per sender (RATE_RULES.instructorMessages). Mail goes through the outbox with a link to the
// thread, or once a day for people who chose the digest (instructor-messages-digest.ts).

import type { z } from 'zod'
import { hasRole, isStaff, type Role } from '../../src-shared/roles.ts'
import type {
  blockSenderInput,
  closeThreadInput,
  replyInput,
  reportThreadInput,
  sendToInstructorInput,
} from '../../src-shared/schemas/instructor-messages.ts'
import { INSTRUCTOR_MESSAGE_WORDS as WORDS } from '../../src-shared/schemas/instructor-messages.ts'
import { ownsCourse } from '../access/courses.ts'
import { findCourseForLearning } from '../catalog/repository-lessons.ts'
import { coursesWithLiveTeacher, isHouseCourse } from '../creators/course-team.ts'
import { canOnCourse, SCHOOL_PERMISSIONS } from '../creators/school-access.ts'
import { schoolSlugsOfCourses } from '../creators/schools.ts'
import {
  attachMessageFiles,
  filesOfThread,
  findMessageFile,
  readStoredFile,
  storeMessageFile,
} from '../instructor-messages/files.ts'
import { mailInstructors, mailMember } from '../instructor-messages/mails.ts'
import {
  dailyDigestChosen,
  findThread,
  findThreadOf,
  houseThreads,
  insertMessage,
  insertReport,
  instructorThreads,
  isBlocked,
  isReported,
  listBlocks,
  listMessages,
  markRead,
  memberThreads,
  openThread,
  reportedThreads,
  setBlocked,
  setClosed,
  setDailyDigest,
  type ThreadRow,
} from '../instructor-messages/threads.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES, type RateLimiter } from '../security/rate-limit.ts'
import type { FileStorage } from '../storage/storage.ts'
import { isPremium } from '../subscriptions/premium.ts'
import { neverOnSale } from './lesson-access.ts'

/**
 * Whether the user answers the course's messages: its owner and co-instructors, its school's members whose role
 * answers them (creators/school-access.ts) and, for a house course (no owner, no co-instructor: the seed's
 * catalogue), the marketplace's editors and up, who run it (decision 0140).
 */
async function answersCourse(db: DB, user: Person, courseId: string): Promise<boolean> {
  if (await canOnCourse(db, user.id, courseId, 'questions.answer')) return true
  return hasRole(user.role, 'editor') && (await isHouseCourse(db, courseId))
}

/** School roles that answer learners' messages (creators/school-access.ts). */
const ANSWERING_ROLES = (Object.keys(SCHOOL_PERMISSIONS) as (keyof typeof SCHOOL_PERMISSIONS)[]).filter((role) =>
  SCHOOL_PERMISSIONS[role].includes('questions.answer'),
)

type Person = { id: string; role: Role }
const notFound = () => new DomainError('not_found', 'Conversation not found')
const displayName = (first: string, last: string) => [first, last ? `${last[0]}.` : ''].filter(Boolean).join(' ')

async function courseOf(db: DB, courseId: string) {
  const course = await findCourseForLearning(db, courseId)
  if (!course) throw new DomainError('not_found', 'Course not found')
  return course
}

/** Whether the member may write about the course now, and if not, the sentence that says why. `teaches`: the member
 * is one of its instructors (who answer from the studio inbox instead). */
async function sendRefusal(db: DB, user: Person, courseId: string, thread: ThreadRow | undefined, now = clock.now()) {
  const course = await courseOf(db, courseId)
  if (await answersCourse(db, user, courseId)) {
    return { course, refusal: WORDS.ownCourse, teaches: true }
  }
  const premium = course.status === 'published' && (await isPremium(db, user, now))
  if (!premium && !(await ownsCourse(db, user.id, courseId, now))) {
    // "Your earlier messages stay readable" only to someone who has some.
    return { course, refusal: thread ? WORDS.notHolderAnymore : WORDS.notHolder }
  }
  if (await isBlocked(db, courseId, user.id)) return { course, refusal: WORDS.blocked }
  if (thread?.closed_at) return { course, refusal: WORDS.closed }
  return { course, refusal: null }
}

async function limitSender(limiter: RateLimiter, userId: string) {
  await reserveAttempt(
    limiter,
    [{ rule: RATE_RULES.instructorMessages, key: `instructor-messages:${userId}` }],
    WORDS.tooMany,
  )
}

async function threadView(db: DB, thread: ThreadRow, viewerId: string) {
  const [messages, files] = await Promise.all([listMessages(db, thread.id), filesOfThread(db, thread.id)])
  return {
    id: thread.id,
    courseId: thread.course_id,
    subject: thread.subject,
    closed: thread.closed_at !== null,
    messages: messages.map((m) => ({
      id: m.id,
      body: m.body,
      author: displayName(m.first_name, m.last_name),
      fromInstructor: m.from_instructor,
      mine: m.author_id === viewerId,
      createdAt: m.created_at.toISOString(),
      files: files
        .filter((f) => f.message_id === m.id)
        .map((f) => ({
          id: f.id,
          name: f.file_name,
          sizeBytes: f.size_bytes,
          url: `/api/instructor-messages/files/${f.id}`,
        })),
    })),
  }
}

/** The member's conversation about a course (null before the first message), and whether they may write now. */
export async function memberConversation(db: DB, user: Person, courseId: string) {
  const thread = await findThreadOf(db, courseId, user.id)
  const { course, refusal, teaches } = await sendRefusal(db, user, courseId, thread)
  // A course not yet on sale is unknown to members, as in the player (its instructors and staff aside).
  if (!thread && neverOnSale(course.status) && !teaches && !isStaff(user.role)) {
    throw new DomainError('not_found', 'Course not found')
  }
  return {
    course: { id: course.id, title: course.title, instructorName: course.instructorName },
    thread: thread ? await threadView(db, thread, user.id) : null,
    canSend: refusal === null,
    refusal,
  }
}

export async function memberInbox(db: DB, user: Person) {
  const rows = await memberThreads(db, user.id)
  // Each course's school: a school's own domain lists its own conversations (decision 0150).
  const schools = await schoolSlugsOfCourses(db, [...new Set(rows.map((row) => row.course_id))])
  return rows.map((row) => ({
    id: row.id,
    courseId: row.course_id,
    courseTitle: row.course_title,
    school: schools.get(row.course_id) ?? null,
    subject: row.subject,
    closed: row.closed_at !== null,
    unread: Number(row.unread),
    lastMessageAt: row.last_message_at.toISOString(),
  }))
}

/** Writes one message into the thread with the files uploaded for it, in the caller's transaction. */
async function postMessage(
  trx: DB,
  where: { courseId: string; threadId: string; authorId: string },
  content: { body: string; fileIds: string[] },
  fromInstructor: boolean,
) {
  const message = await insertMessage(trx, {
    threadId: where.threadId,
    authorId: where.authorId,
    fromInstructor,
    body: content.body,
  })
  await attachMessageFiles(trx, { ...where, messageId: message.id, fileIds: content.fileIds })
  return message
}

export async function sendToInstructor(
  db: DB,
  limiter: RateLimiter,
  user: Person,
  input: z.output<typeof sendToInstructorInput>,
  publicUrl: string,
) {
  const existing = await findThreadOf(db, input.courseId, user.id)
  const { course, refusal } = await sendRefusal(db, user, input.courseId, existing)
  if (refusal) throw new DomainError('forbidden', refusal)
  await limitSender(limiter, user.id)
  const house = await isHouseCourse(db, course.id)
  const sender = await db
    .selectFrom('users')
    .select(['first_name', 'last_name'])
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow()
  return db.transaction().execute(async (trx) => {
    const subject = existing?.subject ?? (input.subject || `About ${course.title}`).slice(0, 200)
    const thread = existing ?? (await openThread(trx, course.id, user.id, subject))
    const where = { courseId: course.id, threadId: thread.id, authorId: user.id }
    const message = await postMessage(trx, where, input, false)
    const memberName = displayName(sender.first_name, sender.last_name) || 'A learner'
    await mailInstructors(
      trx,
      { courseId: course.id, courseTitle: course.title, threadId: thread.id, memberName, body: input.body },
      publicUrl,
      house,
    )
    return { threadId: thread.id, messageId: message.id }
  })
}

/** The thread, when the user is one of its course's instructors (anyone else: not found). */
async function instructorThread(db: DB, user: Person, threadId: string) {
  const thread = await findThread(db, threadId)
  if (!thread || !(await answersCourse(db, user, thread.course_id))) throw notFound()
  return thread
}

type InboxFilter = { courseId?: string; filter: 'all' | 'unread' | 'open' | 'closed' }

export async function studioInbox(db: DB, user: Person, filter: InboxFilter) {
  const rows = await instructorThreads(
    db,
    user.id,
    { courseId: filter.courseId, status: filter.filter },
    ANSWERING_ROLES,
  )
  return { dailyDigest: await dailyDigestChosen(db, user.id), threads: rows.map(inboxRow) }
}

/** Staff (editors and up): the house courses' threads, which they answer (decision 0140). */
export async function houseInbox(db: DB, user: Person, filter: InboxFilter) {
  const rows = await houseThreads(
    db,
    user.id,
    { courseId: filter.courseId, status: filter.filter },
    coursesWithLiveTeacher(db),
  )
  return { threads: rows.map(inboxRow) }
}

function inboxRow(row: Awaited<ReturnType<typeof instructorThreads>>[number]) {
  return {
    id: row.id,
    courseId: row.course_id,
    courseTitle: row.course_title,
    subject: row.subject,
    member: displayName(row.first_name, row.last_name) || 'Learner',
    closed: row.closed_at !== null,
    blocked: row.blocked_at !== null,
    unread: Number(row.unread),
    lastMessageAt: row.last_message_at.toISOString(),
  }
}

export async function studioConversation(db: DB, user: Person, threadId: string) {
  const thread = await instructorThread(db, user, threadId)
  const [course, member, blocked] = await Promise.all([
    courseOf(db, thread.course_id),
    db
      .selectFrom('users')
      .select(['first_name', 'last_name'])
      .where('id', '=', thread.member_id)
      .executeTakeFirstOrThrow(),
    isBlocked(db, thread.course_id, thread.member_id),
  ])
  return {
    ...(await threadView(db, thread, user.id)),
    courseTitle: course.title,
    member: displayName(member.first_name, member.last_name) || 'Learner',
    blocked,
  }
}

export async function replyToMember(
  db: DB,
  limiter: RateLimiter,
  user: Person,
  input: z.output<typeof replyInput>,
  publicUrl: string,
) {
  const thread = await instructorThread(db, user, input.threadId)
  if (thread.closed_at) throw new DomainError('conflict', 'Reopen the conversation to answer it')
  await limitSender(limiter, user.id)
  const [course, author] = await Promise.all([
    courseOf(db, thread.course_id),
    db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', user.id).executeTakeFirstOrThrow(),
  ])
  return db.transaction().execute(async (trx) => {
    const where = { courseId: thread.course_id, threadId: thread.id, authorId: user.id }
    const message = await postMessage(trx, where, input, true)
    await mailMember(
      trx,
      {
        courseId: thread.course_id,
        courseTitle: course.title,
        memberId: thread.member_id,
        instructorName: displayName(author.first_name, author.last_name) || 'The instructor',
        body: input.body,
      },
      publicUrl,
    )
    return { messageId: message.id }
  })
}

export async function closeThread(db: DB, user: Person, input: z.output<typeof closeThreadInput>) {
  const thread = await instructorThread(db, user, input.threadId)
  await setClosed(db, thread.id, user.id, input.closed)
  return { closed: input.closed }
}

export async function blockSender(db: DB, user: Person, input: z.output<typeof blockSenderInput>) {
  const thread = await instructorThread(db, user, input.threadId)
  await setBlocked(
    db,
    { courseId: thread.course_id, memberId: thread.member_id, by: user.id, reason: input.reason },
    input.blocked,
  )
  return { blocked: input.blocked }
}

export async function reportThread(
  db: DB,
  limiter: RateLimiter,
  user: Person,
  input: z.output<typeof reportThreadInput>,
) {
  const thread = await findThread(db, input.threadId)
  if (!thread) throw notFound()
  if (thread.member_id !== user.id && !(await answersCourse(db, user, thread.course_id))) {
    throw notFound()
  }
  await reserveAttempt(limiter, [{ rule: RATE_RULES.lessonReports, key: `message-reports:${user.id}` }], WORDS.tooMany)
  await insertReport(db, thread.id, user.id, input.reason)
  return { reported: true }
}

/**
 * The thread's messages read by its member or one of its instructors (anyone else: not found). Asked by the page once
 * it shows the conversation, never by reading it: the router loads a conversation when a link is only hovered.
 */
export async function markThreadRead(db: DB, user: Person, threadId: string) {
  const thread = await findThread(db, threadId)
  if (!thread) throw notFound()
  if (thread.member_id !== user.id && !(await answersCourse(db, user, thread.course_id))) {
    throw notFound()
  }
  await markRead(db, thread.id, user.id)
  return { read: true }
}

export async function setMessageMail(db: DB, user: Person, dailyDigest: boolean) {
  await setDailyDigest(db, user.id, dailyDigest)
  return { dailyDigest }
}

export async function messageMail(db: DB, user: Person) {
  return { dailyDigest: await dailyDigestChosen(db, user.id) }
}

/** Staff: the reported threads and every block. Other threads are not listed. */
export async function staffOverview(db: DB) {
  const [reports, blocks] = await Promise.all([reportedThreads(db), listBlocks(db)])
  return {
    reports: reports.map((r) => ({
      threadId: r.thread_id,
      subject: r.subject,
      courseTitle: r.course_title,
      reason: r.reason,
      reporter: r.reporter_email,
      byMember: r.by_member,
      createdAt: r.created_at.toISOString(),
    })),
    blocks: blocks.map((b) => ({
      courseId: b.course_id,
      courseTitle: b.course_title,
      member: b.member_email,
      blockedBy: b.blocked_by_email,
      reason: b.reason,
      createdAt: b.created_at.toISOString(),
    })),
  }
}

/** Staff read a thread only once someone reported it. */
export async function staffConversation(db: DB, user: Person, threadId: string) {
  const thread = await findThread(db, threadId)
  if (!thread || !(await isReported(db, thread.id))) throw notFound()
  const course = await courseOf(db, thread.course_id)
  return { ...(await threadView(db, thread, user.id)), courseTitle: course.title }
}

/** An attachment before its message is sent: the uploader must be allowed to write in the course now. */
export async function uploadMessageFile(
  db: DB,
  storage: FileStorage,
  user: Person,
  upload: { courseId: string; fileName: string; data: Buffer },
) {
  const instructor = await answersCourse(db, user, upload.courseId)
  if (!instructor) {
    const thread = await findThreadOf(db, upload.courseId, user.id)
    const { refusal } = await sendRefusal(db, user, upload.courseId, thread)
    if (refusal) throw new DomainError('forbidden', refusal)
  }
  return storeMessageFile(db, storage, { ...upload, uploaderId: user.id })
}

/** A file's bytes: for its thread's member and instructors, staff on a reported thread, or its uploader before sending. */
export async function downloadMessageFile(db: DB, storage: FileStorage, user: Person, fileId: string) {
  const file = await findMessageFile(db, fileId)
  if (!file) throw notFound()
  if (!file.message_id || !file.thread_id) {
    if (file.uploaded_by !== user.id) throw notFound()
    return readStoredFile(storage, file)
  }
  const thread = await findThread(db, file.thread_id)
  if (!thread) throw notFound()
  const allowed =
    thread.member_id === user.id ||
    (await answersCourse(db, user, thread.course_id)) ||
    (hasRole(user.role, 'editor') && (await isReported(db, thread.id)))
  if (!allowed) throw notFound()
  return readStoredFile(storage, file)
}

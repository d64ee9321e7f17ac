// Messages between members and a course's instructors (issue 34): instructor-messages/ owns the threads (one per
// member and course), their messages, each reader's read mark, blocks, reports and the mail setting. Who may read
// or write is decided by flows/instructor-messages.ts; these functions only read and write rows.
import { type Expression, type ExpressionBuilder, type OperandExpression, type SqlBool, sql } from 'kysely'
import type { Database, SchoolMemberRole } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

const NEVER = new Date(0)

export function findThread(db: DB, threadId: string) {
  return db
    .selectFrom('course_message_threads')
    .select(['id', 'course_id', 'member_id', 'subject', 'closed_at', 'created_at'])
    .where('id', '=', threadId)
    .executeTakeFirst()
}
export type ThreadRow = NonNullable<Awaited<ReturnType<typeof findThread>>>

export function findThreadOf(db: DB, courseId: string, memberId: string) {
  return db
    .selectFrom('course_message_threads')
    .select(['id', 'course_id', 'member_id', 'subject', 'closed_at', 'created_at'])
    .where('course_id', '=', courseId)
    .where('member_id', '=', memberId)
    .executeTakeFirst()
}

/** The member's thread about the course, opened by this first message when there is none (one per pair). */
export async function openThread(db: DB, courseId: string, memberId: string, subject: string): Promise<ThreadRow> {
  await db
    .insertInto('course_message_threads')
    .values({
      course_id: courseId,
      member_id: memberId,
      subject,
      created_at: clock.now(),
      last_message_at: clock.now(),
    })
    .onConflict((oc) => oc.columns(['course_id', 'member_id']).doNothing())
    .execute()
  const thread = await findThreadOf(db, courseId, memberId)
  if (!thread) throw new Error('thread not opened')
  return thread
}

/** A message, the thread's latest activity, and the author's own read mark (their message is not unread to them). */
export async function insertMessage(
  db: DB,
  message: { threadId: string; authorId: string; fromInstructor: boolean; body: string },
) {
  const now = clock.now()
  const row = await db
    .insertInto('course_messages')
    .values({
      thread_id: message.threadId,
      author_id: message.authorId,
      from_instructor: message.fromInstructor,
      body: message.body,
      created_at: now,
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow()
  await db
    .updateTable('course_message_threads')
    .set({ last_message_at: now })
    .where('id', '=', message.threadId)
    .execute()
  await markRead(db, message.threadId, message.authorId, now)
  return row
}

export async function markRead(db: DB, threadId: string, userId: string, now = clock.now()) {
  await db
    .insertInto('course_message_reads')
    .values({ thread_id: threadId, user_id: userId, read_at: now })
    .onConflict((oc) =>
      oc
        .columns(['thread_id', 'user_id'])
        .doUpdateSet({ read_at: sql`greatest(course_message_reads.read_at, excluded.read_at)` }),
    )
    .execute()
}

export function listMessages(db: DB, threadId: string) {
  return db
    .selectFrom('course_messages as m')
    .innerJoin('users as u', 'u.id', 'm.author_id')
    .select(['m.id', 'm.author_id', 'm.from_instructor', 'm.body', 'm.created_at', 'u.first_name', 'u.last_name'])
    .where('m.thread_id', '=', threadId)
    .orderBy('m.created_at')
    .orderBy('m.id')
    .limit(1000)
    .execute()
}

/** Unread for `readerId`: the other side's messages after the reader's mark. */
const unreadCount = (fromInstructor: boolean, readerId: string) =>
  sql<string>`(select count(*) from course_messages m
    left join course_message_reads r on r.thread_id = m.thread_id and r.user_id = ${readerId}
    where m.thread_id = t.id and m.from_instructor = ${fromInstructor}
      and m.created_at > coalesce(r.read_at, ${NEVER}::timestamptz))`

/** The member's threads, newest activity first, with the instructors' messages they have not read. */
export function memberThreads(db: DB, memberId: string) {
  return db
    .selectFrom('course_message_threads as t')
    .innerJoin('courses as c', 'c.id', 't.course_id')
    .select(['t.id', 't.course_id', 'c.title as course_title', 't.subject', 't.closed_at', 't.last_message_at'])
    .select(unreadCount(true, memberId).as('unread'))
    .where('t.member_id', '=', memberId)
    .orderBy('t.last_message_at', 'desc')
    .limit(200)
    .execute()
}

type InboxFilter = { courseId?: string; status: 'all' | 'unread' | 'open' | 'closed' }

/** The inbox of an instructor: threads of every course they teach (owner or co-instructor), with their unread. */
export function instructorThreads(
  db: DB,
  instructorId: string,
  filter: InboxFilter,
  /** School member roles that answer messages: their school's courses' threads are theirs too. */
  answeringRoles: readonly SchoolMemberRole[] = [],
) {
  return inboxThreads(db, instructorId, filter, (eb) =>
    eb.or([
      eb.exists(
        eb
          .selectFrom('course_instructors as ci')
          .select('ci.course_id')
          .whereRef('ci.course_id', '=', 't.course_id')
          .where('ci.user_id', '=', instructorId),
      ),
      ...(answeringRoles.length
        ? [
            eb.exists(
              eb
                .selectFrom('course_instructors as ci')
                .innerJoin('schools as s', 's.owner_id', 'ci.user_id')
                .innerJoin('school_members as m', 'm.school_id', 's.id')
                .select('ci.course_id')
                .whereRef('ci.course_id', '=', 't.course_id')
                .where('ci.role', '=', 'owner')
                .where('m.user_id', '=', instructorId)
                .where('m.role', 'in', answeringRoles),
            ),
          ]
        : []),
    ]),
  )
}

/**
 * The staff inbox: threads of the house courses, with `readerId`'s unread. `taught`: the ids of the courses someone
 * teaches (creators/course-team.ts#coursesWithLiveTeacher), the rest being the house's.
 */
export function houseThreads(db: DB, readerId: string, filter: InboxFilter, taught: OperandExpression<string>) {
  return inboxThreads(db, readerId, filter, (eb) => eb('t.course_id', 'not in', taught))
}

type ThreadScope = (
  eb: ExpressionBuilder<Database & { t: Database['course_message_threads'] }, 't'>,
) => Expression<SqlBool>

/** An inbox's threads in `scope`, newest activity first, with the member's name, the block and the reader's unread. */
function inboxThreads(db: DB, readerId: string, filter: InboxFilter, scope: ThreadScope) {
  let q = db
    .selectFrom('course_message_threads as t')
    .where(scope)
    .innerJoin('courses as c', 'c.id', 't.course_id')
    .innerJoin('users as u', 'u.id', 't.member_id')
    .leftJoin('course_message_blocks as b', (join) =>
      join.onRef('b.course_id', '=', 't.course_id').onRef('b.member_id', '=', 't.member_id'),
    )
    .select([
      't.id',
      't.course_id',
      'c.title as course_title',
      't.subject',
      't.closed_at',
      't.last_message_at',
      'u.first_name',
      'u.last_name',
      'b.created_at as blocked_at',
    ])
    .select(unreadCount(false, readerId).as('unread'))
  if (filter.courseId) q = q.where('t.course_id', '=', filter.courseId)
  if (filter.status === 'open') q = q.where('t.closed_at', 'is', null)
  if (filter.status === 'closed') q = q.where('t.closed_at', 'is not', null)
  if (filter.status === 'unread') q = q.where(sql<boolean>`${unreadCount(false, readerId)} > 0`)
  return q.orderBy('t.last_message_at', 'desc').limit(200).execute()
}

export async function setClosed(db: DB, threadId: string, by: string, closed: boolean) {
  await db
    .updateTable('course_message_threads')
    .set(closed ? { closed_at: clock.now(), closed_by: by } : { closed_at: null, closed_by: null })
    .where('id', '=', threadId)
    .execute()
}

export async function isBlocked(db: DB, courseId: string, memberId: string): Promise<boolean> {
  const row = await db
    .selectFrom('course_message_blocks')
    .select('member_id')
    .where('course_id', '=', courseId)
    .where('member_id', '=', memberId)
    .executeTakeFirst()
  return Boolean(row)
}

export async function setBlocked(
  db: DB,
  block: { courseId: string; memberId: string; by: string; reason?: string },
  blocked: boolean,
) {
  if (!blocked) {
    await db
      .deleteFrom('course_message_blocks')
      .where('course_id', '=', block.courseId)
      .where('member_id', '=', block.memberId)
      .execute()
    return
  }
  await db
    .insertInto('course_message_blocks')
    .values({
      course_id: block.courseId,
      member_id: block.memberId,
      blocked_by: block.by,
      reason: block.reason || null,
      created_at: clock.now(),
    })
    .onConflict((oc) => oc.columns(['course_id', 'member_id']).doNothing())
    .execute()
}

/** A report per person and thread (a second one is a no-op). */
export async function insertReport(db: DB, threadId: string, reporterId: string, reason: string) {
  await db
    .insertInto('course_message_reports')
    .values({ thread_id: threadId, reporter_id: reporterId, reason, created_at: clock.now() })
    .onConflict((oc) => oc.columns(['thread_id', 'reporter_id']).doNothing())
    .execute()
}

export async function isReported(db: DB, threadId: string): Promise<boolean> {
  const row = await db
    .selectFrom('course_message_reports')
    .select('thread_id')
    .where('thread_id', '=', threadId)
    .limit(1)
    .executeTakeFirst()
  return Boolean(row)
}

/** Staff's queue: reported threads, newest report first. */
export function reportedThreads(db: DB) {
  return db
    .selectFrom('course_message_reports as r')
    .innerJoin('course_message_threads as t', 't.id', 'r.thread_id')
    .innerJoin('courses as c', 'c.id', 't.course_id')
    .innerJoin('users as reporter', 'reporter.id', 'r.reporter_id')
    .select([
      't.id as thread_id',
      't.subject',
      'c.title as course_title',
      'r.reason',
      'r.created_at',
      'reporter.email as reporter_email',
      sql<boolean>`(r.reporter_id = t.member_id)`.as('by_member'),
    ])
    .orderBy('r.created_at', 'desc')
    .limit(200)
    .execute()
}

/** Staff see every block: who was blocked in which course, by whom and why. */
export function listBlocks(db: DB) {
  return db
    .selectFrom('course_message_blocks as b')
    .innerJoin('courses as c', 'c.id', 'b.course_id')
    .innerJoin('users as m', 'm.id', 'b.member_id')
    .innerJoin('users as by', 'by.id', 'b.blocked_by')
    .select([
      'b.course_id',
      'c.title as course_title',
      'm.email as member_email',
      'by.email as blocked_by_email',
      'b.reason',
      'b.created_at',
    ])
    .orderBy('b.created_at', 'desc')
    .limit(200)
    .execute()
}

export async function dailyDigestChosen(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('course_message_mail_settings')
    .select('daily_digest')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row?.daily_digest ?? false
}

export async function setDailyDigest(db: DB, userId: string, dailyDigest: boolean) {
  await db
    .insertInto('course_message_mail_settings')
    .values({ user_id: userId, daily_digest: dailyDigest })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ daily_digest: dailyDigest }))
    .execute()
}

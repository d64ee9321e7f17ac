// Questions and answers under lessons (issue 33): learning/ owns them, their votes and reports. Lists page by keyset
// (created_at, id) or (upvotes, created_at, id) on per-lesson indexes, so page 500 costs what page 1 does. A hidden
// post is left out for everyone but its author and the course's moderators, who see it marked hidden.
import { sql } from 'kysely'
import type { QuestionSort } from '../../src-shared/schemas/questions.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { likePattern } from '../kernel/like-pattern.ts'

export interface Viewer {
  id: string
  moderator: boolean
}

interface Cursor {
  c: string
  i: string
  v: number
}
const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url')
function decodeCursor(text: string | undefined): Cursor | null {
  if (!text) return null
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor
    if (typeof value.c !== 'string' || typeof value.i !== 'string' || typeof value.v !== 'number') throw new Error()
    if (Number.isNaN(Date.parse(value.c)) || !/^[0-9a-f-]{36}$/i.test(value.i)) throw new Error()
    return value
  } catch {
    throw new DomainError('invalid', 'This list position is no longer valid')
  }
}

export async function listQuestions(
  db: DB,
  viewer: Viewer,
  query: {
    courseId: string
    lessonId?: string
    /** Sections whose questions are left out (a learner's dripped sections not yet open). */
    closedSectionIds?: readonly string[]
    sort: QuestionSort
    search?: string
    cursor?: string
    limit: number
  },
) {
  const after = decodeCursor(query.cursor)
  let q = db
    .selectFrom('lesson_questions as q')
    .innerJoin('users as u', 'u.id', 'q.author_id')
    .innerJoin('lessons as l', 'l.id', 'q.lesson_id')
    .leftJoin('lesson_question_votes as v', (join) =>
      join.onRef('v.question_id', '=', 'q.id').on('v.user_id', '=', viewer.id),
    )
    .select([
      'q.id',
      'q.lesson_id',
      'l.title as lesson_title',
      'q.title',
      'q.body_markdown',
      'q.upvotes',
      'q.answer_count',
      'q.answered_at',
      'q.hidden_at',
      'q.author_id',
      'q.created_at',
      'u.first_name',
      'u.last_name',
      'v.user_id as voted',
    ])
    .where('q.course_id', '=', query.courseId)
  if (query.lessonId) q = q.where('q.lesson_id', '=', query.lessonId)
  if (query.closedSectionIds?.length) q = q.where('l.section_id', 'not in', query.closedSectionIds)
  if (!viewer.moderator) {
    q = q.where((eb) => eb.or([eb('q.hidden_at', 'is', null), eb('q.author_id', '=', viewer.id)]))
  }
  if (query.search) {
    q = q.where(sql<boolean>`(q.title || ' ' || q.body_markdown) ilike ${likePattern(query.search)}`)
  }
  if (query.sort === 'unanswered') q = q.where('q.answered_at', 'is', null)
  if (query.sort === 'votes') {
    if (after)
      q = q.where(
        sql<boolean>`(q.upvotes, q.created_at, q.id) < (${after.v}, ${after.c}::timestamptz, ${after.i}::uuid)`,
      )
    q = q.orderBy('q.upvotes', 'desc')
  } else if (after) {
    q = q.where(sql<boolean>`(q.created_at, q.id) < (${after.c}::timestamptz, ${after.i}::uuid)`)
  }
  const rows = await q
    .orderBy('q.created_at', 'desc')
    .orderBy('q.id', 'desc')
    .limit(query.limit + 1)
    .execute()
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  return {
    items: page,
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor({ c: last.created_at.toISOString(), i: last.id, v: last.upvotes })
        : null,
  }
}
export type QuestionRow = Awaited<ReturnType<typeof listQuestions>>['items'][number]

/** One question (any state) with its course and lesson, for the flows' checks. */
export function findQuestion(db: DB, questionId: string) {
  return db
    .selectFrom('lesson_questions')
    .select(['id', 'course_id', 'lesson_id', 'author_id', 'title', 'hidden_at', 'answered_at', 'answered_mail_at'])
    .where('id', '=', questionId)
    .executeTakeFirst()
}

export function listAnswers(db: DB, viewer: Viewer, questionId: string) {
  let q = db
    .selectFrom('lesson_answers as a')
    .innerJoin('users as u', 'u.id', 'a.author_id')
    .select(['a.id', 'a.body_markdown', 'a.author_id', 'a.hidden_at', 'a.created_at', 'u.first_name', 'u.last_name'])
    .where('a.question_id', '=', questionId)
  if (!viewer.moderator) q = q.where((eb) => eb.or([eb('a.hidden_at', 'is', null), eb('a.author_id', '=', viewer.id)]))
  return q.orderBy('a.created_at').orderBy('a.id').limit(500).execute()
}

export async function insertQuestion(
  db: DB,
  row: { courseId: string; lessonId: string; authorId: string; title: string; body: string },
) {
  return db
    .insertInto('lesson_questions')
    .values({
      course_id: row.courseId,
      lesson_id: row.lessonId,
      author_id: row.authorId,
      title: row.title,
      body_markdown: row.body,
      created_at: clock.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

export async function insertAnswer(db: DB, questionId: string, authorId: string, body: string) {
  const answer = await db
    .insertInto('lesson_answers')
    .values({ question_id: questionId, author_id: authorId, body_markdown: body, created_at: clock.now() })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .updateTable('lesson_questions')
    .set((eb) => ({ answer_count: eb('answer_count', '+', 1) }))
    .where('id', '=', questionId)
    .execute()
  return answer
}

/** Sets or clears the answered mark; true when the asker is still to be told (claimed here, once). */
export async function setAnswered(db: DB, questionId: string, answered: boolean): Promise<boolean> {
  const now = clock.now()
  if (!answered) {
    await db.updateTable('lesson_questions').set({ answered_at: null }).where('id', '=', questionId).execute()
    return false
  }
  await db
    .updateTable('lesson_questions')
    .set({ answered_at: now })
    .where('id', '=', questionId)
    .where('answered_at', 'is', null)
    .execute()
  const claimed = await db
    .updateTable('lesson_questions')
    .set({ answered_mail_at: now })
    .where('id', '=', questionId)
    .where('answered_mail_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  return Boolean(claimed)
}

/** An upvote per person; the counter moves only when the vote row does (so a double click counts once). */
export async function setVote(db: DB, questionId: string, userId: string, up: boolean) {
  const changed = up
    ? await db
        .insertInto('lesson_question_votes')
        .values({ question_id: questionId, user_id: userId })
        .onConflict((oc) => oc.columns(['question_id', 'user_id']).doNothing())
        .returning('user_id')
        .executeTakeFirst()
    : await db
        .deleteFrom('lesson_question_votes')
        .where('question_id', '=', questionId)
        .where('user_id', '=', userId)
        .returning('user_id')
        .executeTakeFirst()
  if (changed) {
    await db
      .updateTable('lesson_questions')
      .set((eb) => ({ upvotes: eb('upvotes', up ? '+' : '-', 1) }))
      .where('id', '=', questionId)
      .execute()
  }
  const row = await db.selectFrom('lesson_questions').select('upvotes').where('id', '=', questionId).executeTakeFirst()
  return { upvotes: row?.upvotes ?? 0, voted: up }
}

export async function setHidden(db: DB, questionId: string, answerId: string | undefined, by: string, hidden: boolean) {
  const values = hidden ? { hidden_at: clock.now(), hidden_by: by } : { hidden_at: null, hidden_by: null }
  const result = answerId
    ? await db
        .updateTable('lesson_answers')
        .set(values)
        .where('id', '=', answerId)
        .where('question_id', '=', questionId)
        .executeTakeFirst()
    : await db.updateTable('lesson_questions').set(values).where('id', '=', questionId).executeTakeFirst()
  if (result.numUpdatedRows === 0n) throw new DomainError('not_found', 'Post not found')
}

/** A report per person and post (a second one is a no-op). */
export async function insertReport(
  db: DB,
  report: { courseId: string; questionId: string; answerId?: string; reporterId: string; reason: string },
) {
  if (report.answerId) {
    const answer = await db
      .selectFrom('lesson_answers')
      .select('id')
      .where('id', '=', report.answerId)
      .where('question_id', '=', report.questionId)
      .executeTakeFirst()
    if (!answer) throw new DomainError('not_found', 'Post not found')
  }
  await sql`insert into lesson_post_reports (course_id, question_id, answer_id, reporter_id, reason)
    values (${report.courseId}, ${report.questionId}, ${report.answerId ?? null}, ${report.reporterId}, ${report.reason})
    on conflict do nothing`.execute(db)
}

/** Open (not dismissed) reports of a course, newest first (the per-course list in the lesson view). */
export function listReports(db: DB, courseId: string) {
  return db
    .selectFrom('lesson_post_reports as r')
    .innerJoin('lesson_questions as q', 'q.id', 'r.question_id')
    .select(['r.question_id', 'r.answer_id', 'r.reason', 'r.created_at', 'q.title', 'q.hidden_at'])
    .where('r.course_id', '=', courseId)
    .where('r.dismissed_at', 'is', null)
    .orderBy('r.created_at', 'desc')
    .limit(100)
    .execute()
}

/**
 * The moderators' queue: one row per reported post (a question, or an answer under it) with open reports, the number
 * of people who reported it, their latest reasons and the post as it stands, latest report first. `courseIds`: the
 * courses the moderator may see (null: every course, for staff).
 */
export async function listReportQueue(db: DB, courseIds: string[] | null, limit = 100) {
  if (courseIds && courseIds.length === 0) return []
  let q = db
    .selectFrom('lesson_post_reports as r')
    .innerJoin('lesson_questions as q', 'q.id', 'r.question_id')
    .leftJoin('lesson_answers as a', 'a.id', 'r.answer_id')
    .innerJoin('courses as c', 'c.id', 'r.course_id')
    .innerJoin('lessons as l', 'l.id', 'q.lesson_id')
    .innerJoin('users as u', (join) => join.on(sql<boolean>`u.id = coalesce(a.author_id, q.author_id)`))
    .select([
      'r.course_id',
      'c.title as course_title',
      'l.title as lesson_title',
      'r.question_id',
      'r.answer_id',
      'q.title',
      'u.first_name',
      'u.last_name',
    ])
    .select(sql<string>`coalesce(a.body_markdown, q.body_markdown)`.as('body_markdown'))
    .select(sql<Date | null>`case when r.answer_id is null then q.hidden_at else a.hidden_at end`.as('hidden_at'))
    .select(sql<number>`count(distinct r.reporter_id)::int`.as('reporters'))
    .select(sql<string[]>`(array_agg(r.reason order by r.created_at desc))[1:5]`.as('reasons'))
    .select(sql<Date>`max(r.created_at)`.as('last_reported_at'))
    .where('r.dismissed_at', 'is', null)
  if (courseIds) q = q.where('r.course_id', 'in', courseIds)
  return q
    .groupBy([
      'r.course_id',
      'c.title',
      'l.title',
      'r.question_id',
      'r.answer_id',
      'q.title',
      'q.body_markdown',
      'q.hidden_at',
      'a.body_markdown',
      'a.hidden_at',
      'u.first_name',
      'u.last_name',
    ])
    .orderBy(sql`max(r.created_at)`, 'desc')
    .limit(limit)
    .execute()
}

/** Dismisses a post's open reports (the post stays as it is); the number dismissed. */
export async function dismissReports(db: DB, questionId: string, answerId: string | undefined, by: string) {
  let q = db
    .updateTable('lesson_post_reports')
    .set({ dismissed_at: clock.now(), dismissed_by: by })
    .where('question_id', '=', questionId)
    .where('dismissed_at', 'is', null)
  q = answerId ? q.where('answer_id', '=', answerId) : q.where('answer_id', 'is', null)
  const result = await q.executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export async function setDigestOptOut(db: DB, courseId: string, userId: string, optOut: boolean) {
  if (optOut) {
    await db
      .insertInto('question_digest_optouts')
      .values({ course_id: courseId, user_id: userId })
      .onConflict((oc) => oc.columns(['course_id', 'user_id']).doNothing())
      .execute()
  } else {
    await db
      .deleteFrom('question_digest_optouts')
      .where('course_id', '=', courseId)
      .where('user_id', '=', userId)
      .execute()
  }
}

export async function digestOptedOut(db: DB, courseId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('question_digest_optouts')
    .select('user_id')
    .where('course_id', '=', courseId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return Boolean(row)
}

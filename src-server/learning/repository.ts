// Reads and writes of learners' progress, course completions and certificates (learning/ is their only writer).
import type { DB } from '../kernel/db.ts'
import { isUuid } from '../kernel/uuid.ts'

/** Whether the learner has completed at least one lesson of the course (reviews require it). */
export async function hasCompletedAnyLesson(db: DB, userId: string, courseId: string): Promise<boolean> {
  const row = await db
    .selectFrom('lesson_progress')
    .select('lesson_id')
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('completed_at', 'is not', null)
    .limit(1)
    .executeTakeFirst()
  return Boolean(row)
}

/** The learner's progress rows of one course. */
export function progressOfCourse(db: DB, userId: string, courseId: string) {
  return db
    .selectFrom('lesson_progress')
    .select(['lesson_id', 'position_seconds', 'watched_seconds', 'completed_at', 'updated_at'])
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .execute()
}

/** One progress row, locked until the end of the caller's transaction (PostgreSQL; PGlite runs one at a time). */
export function lockProgress(trx: DB, userId: string, lessonId: string) {
  return trx
    .selectFrom('lesson_progress')
    .select(['position_seconds', 'watched_ranges', 'watched_seconds', 'completed_at', 'updated_at', 'allowance_from'])
    .where('user_id', '=', userId)
    .where('lesson_id', '=', lessonId)
    .forUpdate()
    .executeTakeFirst()
}

/** Creates the row when missing (a concurrent creator wins harmlessly). */
export async function ensureProgressRow(trx: DB, userId: string, courseId: string, lessonId: string) {
  await trx
    .insertInto('lesson_progress')
    .values({ user_id: userId, course_id: courseId, lesson_id: lessonId, completed_at: null, updated_at: new Date(0) })
    .onConflict((oc) => oc.columns(['user_id', 'lesson_id']).doNothing())
    .execute()
}

export function findCompletion(db: DB, userId: string, courseId: string) {
  return db
    .selectFrom('course_completions as cc')
    .leftJoin('certificates as c', (join) =>
      join.onRef('c.user_id', '=', 'cc.user_id').onRef('c.course_id', '=', 'cc.course_id'),
    )
    .select(['cc.completed_at', 'cc.lesson_count', 'c.id as certificate_id'])
    .where('cc.user_id', '=', userId)
    .where('cc.course_id', '=', courseId)
    .executeTakeFirst()
}

/**
 * The learner's lessons of the courses that count as complete: marked complete, and a quiz lesson only once passed (a
 * "complete" it kept from before it was made a quiz, the editors keeping its id, counts only with a passed attempt).
 * The one rule of a complete lesson: the course's completion, the player's checks and "N of M" and My courses all
 * read it.
 */
function completedLessons(db: DB, userId: string, courseIds: string[]) {
  return db
    .selectFrom('lesson_progress as p')
    .innerJoin('lessons as l', 'l.id', 'p.lesson_id')
    .select('p.lesson_id')
    .where('p.user_id', '=', userId)
    .where('p.course_id', 'in', courseIds)
    .where('p.completed_at', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('l.kind', '!=', 'quiz'),
        eb.exists(
          eb
            .selectFrom('quiz_attempts as a')
            .select('a.id')
            .whereRef('a.lesson_id', '=', 'l.id')
            .where('a.user_id', '=', userId)
            .where('a.passed', '=', true),
        ),
      ]),
    )
}

/** The ids of the learner's lessons of the course that count as complete (completedLessons' rule). */
export async function completedLessonIds(db: DB, userId: string, courseId: string): Promise<Set<string>> {
  const rows = await completedLessons(db, userId, [courseId]).execute()
  return new Set(rows.map((row) => row.lesson_id))
}

export type CourseProgressCounts = { total: number; completed: number; lastActivity: Date | null }

/**
 * Per course: how many lessons completion needs (every lesson but an optional quiz; pending ones are not there yet),
 * how many of those the learner completed (completedLessons' rule), and the learner's last activity. The one count
 * of "N of M": the course's completion and certificate, the player and My courses all read it. Without a learner
 * (a visitor of the player) nothing is complete.
 */
export async function progressByCourse(
  db: DB,
  userId: string | null,
  courseIds: string[],
): Promise<Map<string, CourseProgressCounts>> {
  if (courseIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('lessons as l')
    .leftJoin('quizzes as q', (join) => join.onRef('q.lesson_id', '=', 'l.id').on('l.kind', '=', 'quiz'))
    .leftJoin('lesson_progress as p', (join) =>
      join
        .onRef('p.lesson_id', '=', 'l.id')
        .on((eb) => (userId === null ? eb.lit(false) : eb('p.user_id', '=', userId))),
    )
    .select((eb) => {
      const counted = eb.or([eb('q.required', 'is', null), eb('q.required', '=', true)])
      return [
        'l.course_id',
        eb.fn.countAll<string>().filterWhere(counted).as('total'),
        eb.fn
          .countAll<string>()
          .filterWhere(
            userId === null
              ? eb.lit(false)
              : eb.and([counted, eb('l.id', 'in', completedLessons(db, userId, courseIds))]),
          )
          .as('completed'),
        eb.fn.max('p.updated_at').as('last_activity'),
      ]
    })
    .where('l.course_id', 'in', courseIds)
    .where('l.pending_review', '=', false)
    .groupBy('l.course_id')
    .execute()
  return new Map(
    rows.map((row) => [
      row.course_id,
      {
        total: Number(row.total),
        completed: Number(row.completed),
        lastActivity: row.last_activity && row.last_activity.getTime() > 0 ? row.last_activity : null,
      },
    ]),
  )
}

/** One course's counts (progressByCourse): completion needs `completed === total`. */
export async function courseProgressCounts(db: DB, userId: string, courseId: string) {
  const counts = (await progressByCourse(db, userId, [courseId])).get(courseId)
  return { total: counts?.total ?? 0, completed: counts?.completed ?? 0 }
}

/** Courses the learner has progress in (through Premium, say), besides those bought. */
export async function startedCourseIds(db: DB, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('lesson_progress')
    .select('course_id')
    .distinct()
    .where('user_id', '=', userId)
    .execute()
  return rows.map((row) => row.course_id)
}

export function completedCourses(db: DB, userId: string) {
  return db
    .selectFrom('course_completions')
    .select(['course_id', 'completed_at'])
    .where('user_id', '=', userId)
    .execute()
}

export function findCertificate(db: DB, id: string) {
  return db
    .selectFrom('certificates as c')
    .innerJoin('course_completions as cc', (join) =>
      join.onRef('cc.user_id', '=', 'c.user_id').onRef('cc.course_id', '=', 'c.course_id'),
    )
    .select([
      'c.id',
      'c.user_id',
      'c.course_id',
      'c.learner_name',
      'c.course_title',
      'c.instructor_name',
      'c.issued_at',
      'c.grade_percent',
      'cc.access_source',
      'cc.completed_at',
    ])
    .where('c.id', '=', id)
    .executeTakeFirst()
}

/**
 * Lessons of the course that went live after the given moment ("N lessons added since you completed"): written then,
 * or approved then after waiting for review (a lesson from before live_at existed counts from its creation).
 */
export async function lessonsAddedSince(db: DB, courseId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('lessons')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('course_id', '=', courseId)
    .where('pending_review', '=', false)
    .where((eb) => eb(eb.fn.coalesce('live_at', 'created_at'), '>', since))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The course a certificate was earned in, or null (no such certificate). */
export async function courseOfCertificate(db: DB, id: string): Promise<string | null> {
  if (!isUuid(id)) return null
  const row = await db.selectFrom('certificates').select('course_id').where('id', '=', id).executeTakeFirst()
  return row?.course_id ?? null
}

/** Whether a certificate has this id (the certificate page's status). */
export async function certificateExists(db: DB, id: string): Promise<boolean> {
  return (await courseOfCertificate(db, id)) !== null
}

/** A passed quiz completes its lesson (in the caller's transaction); a lesson already complete keeps its moment. */
export async function completeLessonRow(trx: DB, userId: string, courseId: string, lessonId: string, at: Date) {
  await ensureProgressRow(trx, userId, courseId, lessonId)
  await trx
    .updateTable('lesson_progress')
    .set({ completed_at: at, updated_at: at })
    .where('user_id', '=', userId)
    .where('lesson_id', '=', lessonId)
    .where('completed_at', 'is', null)
    .execute()
}

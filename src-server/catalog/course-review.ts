// A course's way to the shop through review (catalog owns courses, their submissions and draft revisions): what a
// reviewer and the checklist read, the submissions' rows, and the state changes of a reviewed course. Every write
// takes the caller's transaction; flows/course-review*.ts put them together with the plan, the audit and the mail.

import { sql } from 'kysely'
import type { CourseStatus, ReviewComment } from '../../db/types.ts'
import { PLACEHOLDER_IMAGE_URL } from '../../src-shared/constants.ts'
import { coursePrices, priceColumns } from '../../src-shared/course-prices.ts'
import {
  CHECKLIST_LABELS,
  type ChecklistItem,
  REVIEW_DESCRIPTION_MIN,
  REVIEW_LESSONS_MIN,
  REVISION_FIELDS,
  type RevisionField,
} from '../../src-shared/course-review.ts'
import { parseVideoUrl } from '../../src-shared/video-url.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { isUniqueViolation } from '../kernel/pg-errors.ts'
import { lessonsInOrder } from './repository-lessons.ts'

export async function findCourseForReview(db: DB, courseId: string) {
  return db
    .selectFrom('courses as c')
    .leftJoin('categories as cat', 'cat.id', 'c.category_id')
    .select([
      'c.id',
      'c.title',
      'c.subtitle',
      'c.description',
      'c.image_url',
      'c.price_minor',
      'c.currency',
      'c.price_usd_minor',
      'c.price_gbp_minor',
      'c.status',
      'c.owner_id',
      'c.level',
      'c.language',
      'c.instructor_name',
      'c.published_at',
      'c.lessons_count',
      'c.duration_minutes',
      'cat.name as category_name',
      'cat.slug as category_slug',
    ])
    .where('c.id', '=', courseId)
    .executeTakeFirst()
}
export type ReviewCourse = NonNullable<Awaited<ReturnType<typeof findCourseForReview>>>

/**
 * What a reviewer reads of a course, as one value that changes when the creator edits any of it: the fields a buyer
 * sees, the pending revision, the sections and each lesson's last edit. Counts and ratings are left out, so a sale
 * during the review changes nothing.
 */
export async function reviewedContent(db: DB, courseId: string) {
  const [course, draft, sections, lessons] = await Promise.all([
    findCourseForReview(db, courseId),
    db
      .selectFrom('course_drafts')
      .select(['fields', 'updated_at'])
      .where('course_id', '=', courseId)
      .executeTakeFirst(),
    db
      .selectFrom('course_sections')
      .select(['id', 'title', 'position'])
      .where('course_id', '=', courseId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('lessons')
      .select(['id', 'section_id', 'position', 'pending_review', 'updated_at'])
      .where('course_id', '=', courseId)
      .orderBy('id')
      .execute(),
  ])
  const { lessons_count: _count, duration_minutes: _minutes, status: _status, ...fields } = course ?? {}
  return { fields, draft: draft ?? null, sections, lessons }
}

/** The course's curriculum in order, pending lessons included, with what the checklist and reviewers need. */
export async function reviewLessons(db: DB, courseId: string) {
  return lessonsInOrder(db, courseId)
    .leftJoin('quizzes as q', 'q.lesson_id', 'l.id')
    .select([
      'l.id',
      'l.title',
      'l.kind',
      'l.is_preview',
      'l.pending_review',
      'l.duration_seconds',
      'l.video_key',
      'l.video_url',
      'l.video_duration_seconds',
      's.id as section_id',
      's.title as section_title',
      // A quiz lesson never saved has no quizzes row: no questions (decision 0044).
      sql<number>`coalesce(jsonb_array_length(q.questions), 0)::int`.as('question_count'),
    ])
    .execute()
}
export type ReviewLesson = Awaited<ReturnType<typeof reviewLessons>>[number]

/** A published course's edited fields waiting for review (course_drafts), only the known keys. */
export async function draftFields(db: DB, courseId: string): Promise<Partial<Record<RevisionField, unknown>>> {
  const row = await db.selectFrom('course_drafts').select('fields').where('course_id', '=', courseId).executeTakeFirst()
  const fields: Partial<Record<RevisionField, unknown>> = {}
  for (const key of REVISION_FIELDS) if (row?.fields && key in row.fields) fields[key] = row.fields[key]
  return fields
}

/** A video lesson is processed when it has its stored file and that file's length, or a YouTube/Vimeo address. */
export function videoProcessed(
  lesson: Pick<ReviewLesson, 'kind' | 'video_key' | 'video_url' | 'video_duration_seconds'>,
) {
  if (lesson.kind !== 'video') return true
  if (lesson.video_url) return parseVideoUrl(lesson.video_url) !== null
  return Boolean(lesson.video_key) && lesson.video_duration_seconds !== null
}

/** The checklist's course items (the plan item is the flow's), judged on the course as it would be published. */
export function courseChecklist(
  course: Pick<ReviewCourse, 'image_url' | 'description'>,
  draft: Partial<Record<RevisionField, unknown>>,
  lessons: ReviewLesson[],
  /** Lessons whose uploaded video is still being transcoded (id → percent): not publishable yet (decision 0064). */
  processing: ReadonlyMap<string, number> = new Map(),
): ChecklistItem[] {
  const description = (typeof draft.description === 'string' ? draft.description : course.description).trim()
  const image = course.image_url.trim()
  const previews = lessons.filter((lesson) => lesson.is_preview).length
  const unprocessed = lessons
    .filter((lesson) => !videoProcessed(lesson) || processing.has(lesson.id))
    .map((lesson) =>
      processing.has(lesson.id) ? `${lesson.title} (processing ${processing.get(lesson.id)} %)` : lesson.title,
    )
  // An empty quiz can never be passed, so a buyer could never complete the course.
  const quizzes = lessons.filter((lesson) => lesson.kind === 'quiz')
  const emptyQuizzes = quizzes.filter((lesson) => lesson.question_count === 0).map((lesson) => lesson.title)
  /** An item: done with the first detail, else to do with the second. */
  const item = (id: ChecklistItem['id'], done: boolean, doneDetail: string, todoDetail: string): ChecklistItem => ({
    id,
    label: CHECKLIST_LABELS[id],
    done,
    detail: done ? doneDetail : todoDetail,
  })
  return [
    item('image', image !== '' && image !== PLACEHOLDER_IMAGE_URL, 'Image added', 'Add a course image'),
    item(
      'description',
      description.length >= REVIEW_DESCRIPTION_MIN,
      `${description.length} characters`,
      `The description needs at least ${REVIEW_DESCRIPTION_MIN} characters (it has ${description.length})`,
    ),
    item(
      'lessons',
      lessons.length >= REVIEW_LESSONS_MIN,
      `${lessons.length} lessons`,
      `The course needs at least ${REVIEW_LESSONS_MIN} lessons (it has ${lessons.length})`,
    ),
    item(
      'preview',
      previews > 0,
      `${previews} preview ${previews === 1 ? 'lesson' : 'lessons'}`,
      'Mark at least one lesson as a free preview',
    ),
    item(
      'videos',
      unprocessed.length === 0,
      'All videos processed',
      `These video lessons have no processed video yet: ${unprocessed.slice(0, 5).join(', ')}${unprocessed.length > 5 ? '…' : ''}`,
    ),
    item(
      'quizzes',
      emptyQuizzes.length === 0,
      quizzes.length === 0
        ? 'No quiz lessons'
        : `${quizzes.length} ${quizzes.length === 1 ? 'quiz' : 'quizzes'} with questions`,
      `These quiz lessons have no questions yet: ${emptyQuizzes.slice(0, 5).join(', ')}${emptyQuizzes.length > 5 ? '…' : ''}`,
    ),
  ]
}

/** Whether a course has edits waiting for review: a draft revision of its fields, or lessons not yet approved. */
export async function hasPendingChanges(db: DB, courseId: string): Promise<boolean> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('course_drafts').select('course_id').where('course_id', '=', courseId)).as('draft'),
      eb
        .exists(
          eb.selectFrom('lessons').select('id').where('course_id', '=', courseId).where('pending_review', '=', true),
        )
        .as('lessons'),
    ])
    .executeTakeFirstOrThrow()
  return Boolean(row.draft) || Boolean(row.lessons)
}

// Submissions

const submissionColumns = [
  'id',
  'course_id',
  'kind',
  'status',
  'changes',
  'comments',
  'submitted_by',
  'decided_by',
  'decided_at',
  'created_at',
] as const

export function pendingSubmission(db: DB, courseId: string) {
  return db
    .selectFrom('course_submissions')
    .select(submissionColumns)
    .where('course_id', '=', courseId)
    .where('status', '=', 'pending')
    .executeTakeFirst()
}

export function latestSubmission(db: DB, courseId: string) {
  return db
    .selectFrom('course_submissions')
    .select(submissionColumns)
    .where('course_id', '=', courseId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

export function findSubmission(db: DB, submissionId: string) {
  return db.selectFrom('course_submissions').select(submissionColumns).where('id', '=', submissionId).executeTakeFirst()
}

export async function insertSubmission(
  db: DB,
  values: { courseId: string; kind: 'first' | 'revision'; submittedBy: string; changes: Record<string, unknown> },
) {
  try {
    return await db
      .insertInto('course_submissions')
      .values({
        course_id: values.courseId,
        kind: values.kind,
        submitted_by: values.submittedBy,
        changes: JSON.stringify(values.changes),
      })
      .returning(['id', 'kind', 'status', 'created_at'])
      .executeTakeFirstOrThrow()
  } catch (error) {
    // The unique index allows one pending submission per course: a second submit raced the first.
    if (isUniqueViolation(error)) {
      throw new DomainError('conflict', 'This course is already waiting for review')
    }
    throw error
  }
}

/** Moves a pending submission to its outcome; null when it was no longer pending (decided or withdrawn meanwhile). */
export function closeSubmission(
  db: DB,
  submissionId: string,
  status: 'approved' | 'changes_requested' | 'withdrawn',
  decidedBy: string | null,
  comments: ReviewComment[] = [],
  now = clock.now(),
) {
  return db
    .updateTable('course_submissions')
    .set({
      status,
      decided_by: decidedBy,
      decided_at: now,
      ...(status === 'changes_requested' ? { comments: JSON.stringify(comments) } : {}),
    })
    .where('id', '=', submissionId)
    .where('status', '=', 'pending')
    .returning(['id', 'course_id', 'kind', 'changes'])
    .executeTakeFirst()
}

/** Changes the course's status when it is one of `from`; returns whether it did (the state guard of every move). */
export async function moveCourseStatus(
  db: DB,
  courseId: string,
  from: CourseStatus[],
  to: CourseStatus,
  now = clock.now(),
): Promise<boolean> {
  const row = await db
    .updateTable('courses')
    .set({
      status: to,
      updated_at: now,
      ...(to === 'published' ? { published_at: sql<Date>`coalesce(published_at, ${now})` } : {}),
      ...(to === 'unpublished' ? { featured: false } : {}),
    })
    .where('id', '=', courseId)
    .where('status', 'in', from)
    .returning('id')
    .executeTakeFirst()
  return Boolean(row)
}

/**
 * Applies a course's reviewed edits (in the caller's transaction): the draft's title, price and description go live,
 * its pending lessons become visible, the lesson count and duration follow, and the draft is gone.
 */
export async function applyPendingChanges(db: DB, courseId: string, now = clock.now()) {
  const draft = await draftFields(db, courseId)
  const set: Partial<ReturnType<typeof priceColumns>> & { title?: string; description?: string } = {}
  if (typeof draft.title === 'string' && draft.title.trim()) set.title = draft.title
  if ('priceUsdMinor' in draft || 'priceGbpMinor' in draft) {
    // A price left out of the revision stays as it is; the list price follows (decision 0069).
    const row = await db
      .selectFrom('courses')
      .select(['price_minor', 'currency', 'price_usd_minor', 'price_gbp_minor'])
      .where('id', '=', courseId)
      .executeTakeFirstOrThrow()
    const live = coursePrices(row)
    const draftPrice = (value: unknown, fallback: number | null) =>
      value === null ? null : typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback
    const prices = {
      USD: 'priceUsdMinor' in draft ? draftPrice(draft.priceUsdMinor, live.USD) : live.USD,
      GBP: 'priceGbpMinor' in draft ? draftPrice(draft.priceGbpMinor, live.GBP) : live.GBP,
    }
    Object.assign(set, priceColumns(prices, row.currency))
  }
  if (typeof draft.description === 'string') set.description = draft.description
  const shown = await db
    .updateTable('lessons')
    .set({ pending_review: false, live_at: now, updated_at: now })
    .where('course_id', '=', courseId)
    .where('pending_review', '=', true)
    .returning('id')
    .execute()
  await db
    .updateTable('courses')
    .set({
      ...set,
      lessons_count: sql<number>`(select count(*)::int from lessons where course_id = ${courseId})`,
      duration_minutes: sql<number>`(select round(coalesce(sum(duration_seconds), 0) / 60.0)::int from lessons
        where course_id = ${courseId})`,
      updated_at: now,
    })
    .where('id', '=', courseId)
    .execute()
  await db.deleteFrom('course_drafts').where('course_id', '=', courseId).execute()
  return { fields: set, lessonsShown: shown.length }
}

/** Deletes a course nobody holds (the caller checked), in the caller's transaction; returns its lesson ids. */
export async function deleteCourseRow(db: DB, courseId: string): Promise<string[]> {
  const lessons = await db.selectFrom('lessons').select('id').where('course_id', '=', courseId).execute()
  await db.deleteFrom('courses').where('id', '=', courseId).execute()
  return lessons.map((lesson) => lesson.id)
}

// A course's sections and lessons as the studio's curriculum builder changes them, one step at a time, each in the
// caller's transaction after lockCurriculum (so two tabs cannot both add the 101st section). Every write names the
// course too: a section or lesson of another course is not found. Bounds: 100 sections and 200 lessons per course.
// A lesson added to a course on sale waits for review (pending_review): learners do not see it, and the course's
// lessons_count and duration count live lessons only (refreshLiveCounts).

import { sql } from 'kysely'
import type { LessonKind } from '../../db/types.ts'
import { STUDIO_LIMITS, STUDIO_MESSAGES } from '../../src-shared/studio.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'

const sectionNotFound = () => new DomainError('not_found', 'Section not found')
const lessonNotFound = () => new DomainError('not_found', 'Lesson not found')

export type LessonContentType = 'text' | 'embed' | 'upload' | 'quiz'
/** How the studio names a lesson's content: its kind, and for a video whether it is a link or an upload. */
export const lessonContentType = (row: { kind: string; video_url: string | null }): LessonContentType =>
  row.kind === 'article' ? 'text' : row.kind === 'quiz' ? 'quiz' : row.video_url ? 'embed' : 'upload'

/** What the outline shows of a lesson; the lesson editor reads these and the lesson's content. */
const outlineLessonColumns = [
  'id',
  'section_id',
  'title',
  'kind',
  'video_key',
  'video_url',
  'duration_seconds',
  'is_preview',
  'pending_review',
] as const

/** The outline the builder shows: every section and lesson, pending ones included and marked. */
export async function readStudioCurriculum(db: DB, courseId: string) {
  const [sections, lessons] = await Promise.all([
    db
      .selectFrom('course_sections')
      .select(['id', 'title'])
      .where('course_id', '=', courseId)
      .orderBy('position')
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('lessons')
      .select(outlineLessonColumns)
      .where('course_id', '=', courseId)
      .orderBy('position')
      .orderBy('created_at')
      .execute(),
  ])
  return sections.map((section) => ({
    id: section.id,
    title: section.title,
    lessons: lessons
      .filter((lesson) => lesson.section_id === section.id)
      .map((lesson) => ({
        id: lesson.id,
        title: lesson.title,
        type: lessonContentType(lesson),
        durationSeconds: lesson.duration_seconds,
        isPreview: lesson.is_preview,
        pendingReview: lesson.pending_review,
        hasVideo: lesson.video_key !== null || lesson.video_url !== null,
      })),
  }))
}

/** One lesson with its content, for the lesson editor. */
export async function findStudioLesson(db: DB, courseId: string, lessonId: string) {
  const row = await db
    .selectFrom('lessons')
    .select([...outlineLessonColumns, 'body_markdown', 'video_duration_seconds'])
    .where('course_id', '=', courseId)
    .where('id', '=', lessonId)
    .executeTakeFirst()
  if (!row) throw lessonNotFound()
  return row
}

/** Locks the course row for the transaction: curriculum steps on one course run one after another. */
export async function lockCurriculum(trx: DB, courseId: string) {
  const row = await trx
    .selectFrom('courses')
    .select(['id', 'status'])
    .where('id', '=', courseId)
    .forUpdate()
    .executeTakeFirst()
  if (!row) throw new DomainError('not_found', 'Course not found')
  return row
}

async function countOf(trx: DB, table: 'course_sections' | 'lessons', courseId: string) {
  const row = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('course_id', '=', courseId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function addSection(trx: DB, courseId: string, title: string) {
  if ((await countOf(trx, 'course_sections', courseId)) >= STUDIO_LIMITS.sections) {
    throw new DomainError('invalid', STUDIO_MESSAGES.tooManySections)
  }
  return trx
    .insertInto('course_sections')
    .values({
      course_id: courseId,
      title,
      position: sql<number>`(select coalesce(max(position) + 1, 0) from course_sections where course_id = ${courseId})`,
    })
    .returning(['id', 'title'])
    .executeTakeFirstOrThrow()
}

export async function renameSection(trx: DB, courseId: string, sectionId: string, title: string) {
  const result = await trx
    .updateTable('course_sections')
    .set({ title })
    .where('id', '=', sectionId)
    .where('course_id', '=', courseId)
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) throw sectionNotFound()
}

/** The ids of the section's lessons (to release their uploads before deleteSection). */
export async function sectionLessonIds(trx: DB, courseId: string, sectionId: string): Promise<string[]> {
  const section = await trx
    .selectFrom('course_sections')
    .select('id')
    .where('id', '=', sectionId)
    .where('course_id', '=', courseId)
    .executeTakeFirst()
  if (!section) throw sectionNotFound()
  const rows = await trx.selectFrom('lessons').select('id').where('section_id', '=', sectionId).execute()
  return rows.map((row) => row.id)
}

export async function deleteSection(trx: DB, courseId: string, sectionId: string) {
  await trx.deleteFrom('lessons').where('section_id', '=', sectionId).where('course_id', '=', courseId).execute()
  await deleteOfCourse(trx, 'course_sections', courseId, sectionId, sectionNotFound)
}

/** Deletes a section or lesson of this course (another course's id is not found), then recounts what is on sale. */
async function deleteOfCourse(
  trx: DB,
  table: 'course_sections' | 'lessons',
  courseId: string,
  id: string,
  notFound: () => DomainError,
) {
  const result = await trx.deleteFrom(table).where('id', '=', id).where('course_id', '=', courseId).executeTakeFirst()
  if (result.numDeletedRows === 0n) throw notFound()
  await refreshLiveCounts(trx, courseId)
}

/**
 * Puts sections and lessons in the given order, moving lessons between sections. The arrangement must name every
 * section and lesson of the course exactly once (a stale or foreign id refuses the whole change).
 */
export async function arrangeCurriculum(trx: DB, courseId: string, sections: { id: string; lessonIds: string[] }[]) {
  const [oldSections, oldLessons] = await Promise.all([
    trx.selectFrom('course_sections').select('id').where('course_id', '=', courseId).execute(),
    trx.selectFrom('lessons').select('id').where('course_id', '=', courseId).execute(),
  ])
  const sameSet = (wanted: string[], existing: { id: string }[]) =>
    wanted.length === existing.length &&
    new Set(wanted).size === wanted.length &&
    existing.every((row) => wanted.includes(row.id))
  const lessonIds = sections.flatMap((section) => section.lessonIds)
  if (
    !sameSet(
      sections.map((section) => section.id),
      oldSections,
    ) ||
    !sameSet(lessonIds, oldLessons)
  ) {
    throw new DomainError('conflict', STUDIO_MESSAGES.arrangement)
  }
  for (const [position, section] of sections.entries()) {
    await trx.updateTable('course_sections').set({ position }).where('id', '=', section.id).execute()
    for (const [lessonPosition, lessonId] of section.lessonIds.entries()) {
      await trx
        .updateTable('lessons')
        .set({ section_id: section.id, position: lessonPosition })
        .where('id', '=', lessonId)
        .execute()
    }
  }
}

/** A new text lesson at the end of the section; waiting for review when the course is on sale. */
export async function addLesson(trx: DB, courseId: string, sectionId: string, title: string, pendingReview: boolean) {
  await sectionLessonIds(trx, courseId, sectionId)
  if ((await countOf(trx, 'lessons', courseId)) >= STUDIO_LIMITS.lessons) {
    throw new DomainError('invalid', STUDIO_MESSAGES.tooManyLessons)
  }
  const row = await trx
    .insertInto('lessons')
    .values({
      course_id: courseId,
      section_id: sectionId,
      title,
      kind: 'article',
      pending_review: pendingReview,
      position: sql<number>`(select coalesce(max(position) + 1, 0) from lessons where section_id = ${sectionId})`,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await refreshLiveCounts(trx, courseId)
  return row
}

export interface LessonWrite {
  title: string
  isPreview: boolean
  kind: LessonKind
  bodyMarkdown: string
  videoUrl: string | null
  videoKey: string | null
  videoDurationSeconds: number | null
  durationSeconds: number
}

export async function writeLesson(trx: DB, courseId: string, lessonId: string, values: LessonWrite) {
  const result = await trx
    .updateTable('lessons')
    .set({
      title: values.title,
      is_preview: values.isPreview,
      kind: values.kind,
      body_markdown: values.bodyMarkdown,
      video_url: values.videoUrl,
      video_key: values.videoKey,
      video_duration_seconds: values.videoDurationSeconds,
      duration_seconds: values.durationSeconds,
      updated_at: clock.now(),
    })
    .where('id', '=', lessonId)
    .where('course_id', '=', courseId)
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) throw lessonNotFound()
  await refreshLiveCounts(trx, courseId)
}

export async function setLessonPreview(trx: DB, courseId: string, lessonId: string, isPreview: boolean) {
  const result = await trx
    .updateTable('lessons')
    .set({ is_preview: isPreview, updated_at: clock.now() })
    .where('id', '=', lessonId)
    .where('course_id', '=', courseId)
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) throw lessonNotFound()
}

export async function deleteLesson(trx: DB, courseId: string, lessonId: string) {
  await deleteOfCourse(trx, 'lessons', courseId, lessonId, lessonNotFound)
}

/** The course's lessons_count and duration_minutes from its live lessons (pending ones are not on sale yet). */
export async function refreshLiveCounts(trx: DB, courseId: string): Promise<void> {
  await trx
    .updateTable('courses')
    .set({
      lessons_count: sql<number>`(select count(*)::int from lessons where course_id = ${courseId}
        and not pending_review)`,
      duration_minutes: sql<number>`(select round(coalesce(sum(duration_seconds), 0) / 60.0)::int from lessons
        where course_id = ${courseId} and not pending_review)`,
      updated_at: clock.now(),
    })
    .where('id', '=', courseId)
    .execute()
}

// Reads of a course's sections and lessons. The outline (titles, durations, preview flags, kinds) is public; a
// lesson's content (body, video, attachments) is read only through learning/, after access/ said yes. A lesson added
// to a course on sale waits for review (pending_review): every learner-facing read here leaves it out; staff's editor
// reads it (`withPending`), so an admin save keeps it.
import type { LessonKind } from '../../db/types.ts'
import { compiledOnce } from '../kernel/compiled-query.ts'
import type { DB } from '../kernel/db.ts'
import { isUuid } from '../kernel/uuid.ts'
import { courseExists } from './repository.ts'

export interface OutlineLesson {
  id: string
  title: string
  durationSeconds: number
  isPreview: boolean
  kind: LessonKind
  /** Set (true) only when the duration is an uploaded video's, read from the file: the admin form shows it fixed. */
  durationFromVideo?: true
}
export interface OutlineSection {
  id: string
  title: string
  lessons: OutlineLesson[]
}

/** The outline rows of the given courses: sections in order, each with its lessons in order (or one null lesson). */
function curriculumQuery(db: DB, courseIds: string[], withPending = false) {
  return db
    .selectFrom('course_sections as s')
    .leftJoin('lessons as l', (join) => {
      const on = join.onRef('l.section_id', '=', 's.id')
      return withPending ? on : on.on('l.pending_review', '=', false)
    })
    .select([
      's.course_id',
      's.id as section_id',
      's.title as section_title',
      'l.id as lesson_id',
      'l.title as lesson_title',
      'l.duration_seconds',
      'l.is_preview',
      'l.kind',
      'l.video_key',
      'l.video_duration_seconds',
    ])
    .where('s.course_id', 'in', courseIds)
    .orderBy('s.course_id')
    .orderBy('s.position')
    .orderBy('l.position')
}
type CurriculumRow = Awaited<ReturnType<ReturnType<typeof curriculumQuery>['execute']>>[number]

// One course's outline is read on every course page: its SQL is built once.
const oneCurriculum = compiledOnce((db: DB, courseId: string) => curriculumQuery(db, [courseId]))

/**
 * Every section of the course in order, each with its lessons in order (sections without lessons included); live
 * lessons only unless `withPending` (staff's editor).
 */
export async function readCurriculum(db: DB, courseId: string, withPending = false): Promise<OutlineSection[]> {
  const rows = withPending ? await curriculumQuery(db, [courseId], true).execute() : await oneCurriculum(db, courseId)
  return toCurricula([courseId], rows).get(courseId) ?? []
}

/** The curricula of several courses in one query (the admin's course list, pending lessons included). */
export async function readCurricula(db: DB, courseIds: string[]): Promise<Map<string, OutlineSection[]>> {
  if (courseIds.length === 0) return new Map()
  return toCurricula(courseIds, await curriculumQuery(db, courseIds, true).execute())
}

function toCurricula(courseIds: string[], rows: CurriculumRow[]): Map<string, OutlineSection[]> {
  const curricula = new Map<string, OutlineSection[]>(courseIds.map((id) => [id, []]))
  for (const row of rows) {
    const sections = curricula.get(row.course_id) ?? []
    let section = sections.at(-1)
    if (section?.id !== row.section_id) {
      section = { id: row.section_id, title: row.section_title, lessons: [] }
      sections.push(section)
    }
    if (row.lesson_id === null) continue
    section.lessons.push({
      id: row.lesson_id,
      title: row.lesson_title ?? '',
      durationSeconds: row.duration_seconds ?? 0,
      isPreview: row.is_preview ?? false,
      kind: row.kind ?? 'article',
      ...(row.video_key && row.video_duration_seconds !== null ? { durationFromVideo: true as const } : {}),
    })
  }
  return curricula
}

/** A course's lessons in curriculum order (section, then lesson), pending ones included; the caller selects. */
export function lessonsInOrder(db: DB, courseId: string) {
  return db
    .selectFrom('lessons as l')
    .innerJoin('course_sections as s', 's.id', 'l.section_id')
    .where('l.course_id', '=', courseId)
    .orderBy('s.position')
    .orderBy('l.position')
}

/** The ids of a course's live lessons in curriculum order. */
export async function listLessonIds(db: DB, courseId: string): Promise<string[]> {
  const rows = await lessonsInOrder(db, courseId).select('l.id').where('l.pending_review', '=', false).execute()
  return rows.map((row) => row.id)
}

/**
 * A lesson's full row (content included), or undefined; of the given course unless courseId is null. A lesson
 * waiting for review is not found unless `withPending` (staff's editor).
 */
export function findLessonRow(db: DB, courseId: string | null, lessonId: string, withPending = false) {
  let query = db
    .selectFrom('lessons as l')
    .innerJoin('courses as c', 'c.id', 'l.course_id')
    .select([
      'l.id',
      'l.course_id',
      'l.title',
      'l.duration_seconds',
      'l.is_preview',
      'l.kind',
      'l.body_markdown',
      'l.video_key',
      'l.video_url',
      'l.video_duration_seconds',
      'l.updated_at',
      'c.status as course_status',
      'c.title as course_title',
      'c.included_in_premium',
      'c.certificate',
      'c.instructor_name',
      'c.offline_for_buyers',
    ])
    .where('l.id', '=', lessonId)
  if (courseId !== null) query = query.where('l.course_id', '=', courseId)
  if (!withPending) query = query.where('l.pending_review', '=', false)
  return query.executeTakeFirst()
}
export type LessonRow = NonNullable<Awaited<ReturnType<typeof findLessonRow>>>

/** The course part of a lesson row, as findCourseForLearning gives it (one query instead of two). */
export function courseOfLessonRow(row: LessonRow): CourseForLearning {
  return {
    id: row.course_id,
    title: row.course_title,
    status: row.course_status,
    includedInPremium: row.included_in_premium,
    certificate: row.certificate,
    instructorName: row.instructor_name,
    offlineForBuyers: row.offline_for_buyers,
  }
}

export function listAttachments(db: DB, lessonId: string) {
  return db
    .selectFrom('lesson_attachments')
    .select(['id', 'file_name', 'content_type', 'size_bytes', 'storage_key'])
    .where('lesson_id', '=', lessonId)
    .orderBy('position')
    .execute()
}

/** What the player and the access rule need of a course (any status: the caller decides who sees drafts). */
export function findCourseForLearning(db: DB, courseId: string) {
  return db
    .selectFrom('courses')
    .select([
      'id',
      'title',
      'status',
      'included_in_premium as includedInPremium',
      'certificate',
      'instructor_name as instructorName',
      'offline_for_buyers as offlineForBuyers',
    ])
    .where('id', '=', courseId)
    .executeTakeFirst()
}
export type CourseForLearning = NonNullable<Awaited<ReturnType<typeof findCourseForLearning>>>

/** Whether the attachment belongs to a lesson; with the lesson's course, for the access check. */
export function findAttachment(db: DB, attachmentId: string) {
  return db
    .selectFrom('lesson_attachments as a')
    .innerJoin('lessons as l', 'l.id', 'a.lesson_id')
    .select([
      'a.id',
      'a.file_name',
      'a.content_type',
      'a.size_bytes',
      'a.storage_key',
      'l.course_id',
      'l.id as lesson_id',
      'l.is_preview',
    ])
    .where('a.id', '=', attachmentId)
    .where('l.pending_review', '=', false)
    .executeTakeFirst()
}

/** Whether the player has a course at this id: any course but a draft (buyers keep archived ones). */
export const learnableCourseExists = (db: DB, courseId: string) => courseExists(db, courseId, '!=', 'draft')

/** Whether a lesson of a course that is not a draft has this id (the player's page status). */
export async function learnableLessonExists(db: DB, lessonId: string): Promise<boolean> {
  if (!isUuid(lessonId)) return false
  const row = await db
    .selectFrom('lessons as l')
    .innerJoin('courses as c', 'c.id', 'l.course_id')
    .select('l.id')
    .where('l.id', '=', lessonId)
    .where('l.pending_review', '=', false)
    .where('c.status', '!=', 'draft')
    .executeTakeFirst()
  return row !== undefined
}

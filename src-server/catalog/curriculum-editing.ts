// Writes a course's curriculum from the admin form (or the seed) while keeping the ids of sections and lessons that
// still exist, so learners' progress on them survives an edit. A lesson is the same lesson when the form sends its
// id back, or (a form or script without ids) when an unmatched lesson of the course has the same title.

import { sql } from 'kysely'
import type { LessonKind } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export interface LessonValues {
  id?: string
  title: string
  durationSeconds: number
  isPreview: boolean
  /** Content fields left undefined keep what the lesson has (a new lesson gets the column defaults). */
  kind?: LessonKind
  bodyMarkdown?: string
  videoKey?: string | null
  videoUrl?: string | null
}
export interface SectionValues {
  id?: string
  title: string
  lessons: LessonValues[]
}

/** Matches wanted items to existing rows by id, else by title; returns the existing id or undefined per item. */
function matchIds<T extends { id?: string; title: string }>(wanted: T[], existing: { id: string; title: string }[]) {
  const free = new Map(existing.map((row) => [row.id, row]))
  const byId = wanted.map((item) => (item.id && free.delete(item.id) ? item.id : undefined))
  return wanted.map((item, index) => {
    if (byId[index]) return byId[index]
    const same = [...free.values()].find((row) => row.title === item.title)
    if (!same) return undefined
    free.delete(same.id)
    return same.id
  })
}

function contentOf(lesson: LessonValues) {
  return {
    ...(lesson.kind !== undefined ? { kind: lesson.kind } : {}),
    ...(lesson.bodyMarkdown !== undefined ? { body_markdown: lesson.bodyMarkdown } : {}),
    ...(lesson.videoKey !== undefined ? { video_key: lesson.videoKey } : {}),
    ...(lesson.videoUrl !== undefined ? { video_url: lesson.videoUrl } : {}),
  }
}

/** Replaces the course's curriculum by `sections` inside the caller's transaction. */
export async function writeCurriculum(trx: DB, courseId: string, sections: SectionValues[]): Promise<void> {
  const [oldSections, oldLessons] = await Promise.all([
    trx.selectFrom('course_sections').select(['id', 'title']).where('course_id', '=', courseId).execute(),
    trx.selectFrom('lessons').select(['id', 'title']).where('course_id', '=', courseId).execute(),
  ])
  const sectionIds = matchIds(sections, oldSections)
  const lessonIds = matchIds(
    sections.flatMap((section) => section.lessons),
    oldLessons,
  )
  const keptSections = new Set<string>()
  const keptLessons = new Set<string>()
  let lessonIndex = 0
  for (const [position, section] of sections.entries()) {
    let sectionId = sectionIds[position]
    if (sectionId) {
      await trx
        .updateTable('course_sections')
        .set({ position, title: section.title })
        .where('id', '=', sectionId)
        .execute()
    } else {
      const row = await trx
        .insertInto('course_sections')
        .values({ course_id: courseId, position, title: section.title })
        .returning('id')
        .executeTakeFirstOrThrow()
      sectionId = row.id
    }
    keptSections.add(sectionId)
    for (const [lessonPosition, lesson] of section.lessons.entries()) {
      const lessonId = lessonIds[lessonIndex++]
      const values = {
        section_id: sectionId,
        position: lessonPosition,
        title: lesson.title,
        duration_seconds: lesson.durationSeconds,
        is_preview: lesson.isPreview,
        ...contentOf(lesson),
      }
      if (lessonId) {
        await trx
          .updateTable('lessons')
          .set({
            ...values,
            // An uploaded video's length was read from the file: the form's typed value does not replace it.
            duration_seconds: sql<number>`coalesce(case when video_key is not null then video_duration_seconds end,
              ${lesson.durationSeconds})`,
            updated_at: clock.now(),
          })
          .where('id', '=', lessonId)
          .execute()
        keptLessons.add(lessonId)
      } else {
        await trx
          .insertInto('lessons')
          .values({ course_id: courseId, ...values })
          .execute()
      }
    }
  }
  const goneLessons = oldLessons.filter((row) => !keptLessons.has(row.id)).map((row) => row.id)
  if (goneLessons.length) await trx.deleteFrom('lessons').where('id', 'in', goneLessons).execute()
  const goneSections = oldSections.filter((row) => !keptSections.has(row.id)).map((row) => row.id)
  if (goneSections.length) await trx.deleteFrom('course_sections').where('id', 'in', goneSections).execute()
  if (lessonIndex > 0) await refreshCourseDuration(trx, courseId)
}

/**
 * The course's shown duration and lesson count: the sum of its live lessons' (whole minutes), as the admin form
 * computes it; lessons waiting for review are not on sale yet.
 */
export async function refreshCourseDuration(trx: DB, courseId: string): Promise<void> {
  await trx
    .updateTable('courses')
    .set({
      duration_minutes: sql<number>`(select round(coalesce(sum(duration_seconds), 0) / 60.0)::int from lessons
        where course_id = ${courseId} and not pending_review)`,
      lessons_count: sql<number>`(select count(*)::int from lessons where course_id = ${courseId}
        and not pending_review)`,
    })
    .where('id', '=', courseId)
    .where(sql<boolean>`exists (select 1 from lessons where course_id = ${courseId})`)
    .execute()
}

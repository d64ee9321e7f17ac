// The demo courses' sections and lessons. Only a course that has no sections yet gets them, so staff edits and
// learners' progress (which point at lesson ids) are never overwritten by a second seed.
import type { Kysely } from 'kysely'
import { parseLessonDuration } from '../../src-shared/lesson-duration.ts'
import type { Database } from '../types.ts'
import type { SeedCourse } from './data/types.ts'

export async function seedCurricula(trx: Kysely<Database>, courses: SeedCourse[]): Promise<void> {
  const withSections = await trx.selectFrom('course_sections').select('course_id').distinct().execute()
  const done = new Set(withSections.map((row) => row.course_id))
  for (const course of courses) {
    if (done.has(course.id) || course.curriculum.length === 0) continue
    const sections = await trx
      .insertInto('course_sections')
      .values(course.curriculum.map((section, position) => ({ course_id: course.id, position, title: section.title })))
      .returning(['id', 'position'])
      .execute()
    const sectionId = new Map(sections.map((row) => [row.position, row.id]))
    await trx
      .insertInto('lessons')
      .values(
        course.curriculum.flatMap((section, sectionPosition) =>
          section.lessons.map((lesson, position) => ({
            course_id: course.id,
            section_id: sectionId.get(sectionPosition) ?? '',
            position,
            title: lesson.title,
            duration_seconds: parseLessonDuration(lesson.duration),
            is_preview: lesson.preview ?? false,
          })),
        ),
      )
      .execute()
  }
}

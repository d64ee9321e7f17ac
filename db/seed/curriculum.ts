// The demo courses' sections and lessons. Only a course that has no sections yet gets them, so staff edits and
// learners' progress (which point at lesson ids) are never overwritten by a second seed.
import type { Kysely } from 'kysely'
import { parseLessonDuration } from '../../src-shared/lesson-duration.ts'
import type { Database } from '../types.ts'
import type { SeedCourse, SeedLesson } from './data/types.ts'
import { DEMO_VIDEOS, demoVideoKey, VIDEO_LESSONS } from './data/videos.ts'
import { lessonArticle } from './lesson-content.ts'

const videoLength = new Map(DEMO_VIDEOS.map((video) => [video.file, video.durationSeconds]))

/** Every lesson of the course in order, with its section, its video (if any) and its real duration. */
export function seedLessons(course: SeedCourse) {
  const videos = new Map((VIDEO_LESSONS[course.id] ?? []).map((v) => [v.lessonIndex, v.file]))
  const all: { sectionPosition: number; sectionTitle: string; position: number; lesson: SeedLesson }[] =
    course.curriculum.flatMap((section, sectionPosition) =>
      section.lessons.map((lesson, position) => ({ sectionPosition, sectionTitle: section.title, position, lesson })),
    )
  return all.map((entry, index) => {
    const video = videos.get(index)
    const durationSeconds = video ? (videoLength.get(video) ?? 0) : parseLessonDuration(entry.lesson.duration)
    return { ...entry, index, total: all.length, video, durationSeconds }
  })
}

/** The course's duration in minutes: the sum of its lessons' (as the admin form computes it). */
export function seedCourseMinutes(course: SeedCourse): number {
  return Math.round(seedLessons(course).reduce((sum, lesson) => sum + lesson.durationSeconds, 0) / 60)
}

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
        seedLessons(course).map((entry) => ({
          course_id: course.id,
          section_id: sectionId.get(entry.sectionPosition) ?? '',
          position: entry.position,
          title: entry.lesson.title,
          duration_seconds: entry.durationSeconds,
          is_preview: entry.lesson.preview ?? false,
          kind: entry.video ? ('video' as const) : ('article' as const),
          video_key: entry.video ? demoVideoKey(entry.video) : null,
          // The demo file's own length (tests/unit/video-duration.test.ts reads it from the file).
          video_duration_seconds: entry.video ? entry.durationSeconds : null,
          body_markdown: lessonArticle({
            course,
            sectionTitle: entry.sectionTitle,
            lessonTitle: entry.lesson.title,
            durationSeconds: entry.durationSeconds,
            index: entry.index,
            total: entry.total,
          }),
        })),
      )
      .execute()
  }
}

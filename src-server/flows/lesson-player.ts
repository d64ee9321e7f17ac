// What the player shows: the course's curriculum with a check on each completed lesson and a lock on each lesson
// the learner cannot open, "N of M lessons complete", the lesson to resume, and the completion (with its
// certificate and the lessons added since). One lesson's content comes only from openLesson() below, after access/
// said yes: everyone else gets its title. A holder whose counted lessons are all complete without the course being
// so (the course changed since their last write) has it completed when the player or My courses shows it.

import type { Role } from '../../src-shared/roles.ts'
import { parseVideoUrl } from '../../src-shared/video-url.ts'
import {
  type CourseForLearning,
  findCourseForLearning,
  findLessonRow,
  listAttachments,
  readCurriculum,
} from '../catalog/repository-lessons.ts'
import { renditionsOfKey } from '../creators/upload-rows.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import type { Learner } from '../learning/completion.ts'
import {
  completedLessonIds,
  findCompletion,
  lessonsAddedSince,
  progressByCourse,
  progressOfCourse,
} from '../learning/repository.ts'
import { lessonLockedUntil, sectionsLockedUntil } from './drip-access.ts'
import type { AccessUser } from './lesson-access.ts'
import { canPreviewLesson, courseAccessSource, isCourseEditor, neverOnSale } from './lesson-access.ts'
import { afterLessonCompleted } from './save-progress.ts'

/** The player's viewer: a signed-in learner (who may complete the course here) or a visitor. */
export type PlayerUser = (Learner & { role: Role }) | null

async function courseOrNotFound(db: DB, user: AccessUser, courseId: string): Promise<CourseForLearning> {
  const course = await findCourseForLearning(db, courseId)
  const staff = user && user.role !== 'customer'
  if (!course) throw new DomainError('not_found', 'Course not found')
  // In review or sent back for changes, it is hidden like a draft: not even its outline shows.
  if (neverOnSale(course.status) && !staff && !(await isCourseEditor(db, user, courseId))) {
    throw new DomainError('not_found', 'Course not found')
  }
  return course
}

export function progressSummary(completed: number, total: number) {
  return { completed, total, percent: total === 0 ? 0 : Math.round((completed / total) * 100) }
}

/** Whether the counts say every counted lesson is complete (a course without lessons never completes). */
export function allLessonsDone(counts: { completed: number; total: number } | undefined): boolean {
  return counts !== undefined && counts.total > 0 && counts.completed >= counts.total
}

/**
 * Completes the course for a learner whose counted lessons are all complete though no write of theirs completed it:
 * a lesson they had not done was deleted, a required quiz made optional, their last lesson done while they did not
 * hold the course. Called by the reads that show the course as done (the player, My courses) when their counts say
 * so and there is no completion: the same rule, lock and outcome as a progress write's (afterLessonCompleted: only a
 * holder completes, once, with its certificate, e-mail and webhook; a concurrent read completes nothing more).
 */
export async function completeWhenShownDone(
  db: DB,
  user: Learner & { role: Role },
  course: CourseForLearning,
  publicUrl: string,
): Promise<void> {
  await db.transaction().execute((trx) => afterLessonCompleted(trx, user, course, publicUrl))
}

export async function playerCourse(db: DB, user: PlayerUser, courseId: string, publicUrl: string) {
  const course = await courseOrNotFound(db, user, courseId)
  const [source, editor, curriculum, progressRows, done, counts, found] = await Promise.all([
    courseAccessSource(db, user, course),
    isCourseEditor(db, user, courseId),
    readCurriculum(db, courseId),
    user ? progressOfCourse(db, user.id, courseId) : Promise.resolve([]),
    // Complete as the course's completion counts it: a lesson made a quiz only once the quiz is passed.
    user ? completedLessonIds(db, user.id, courseId) : Promise.resolve(new Set<string>()),
    // "N of M" as the course's completion counts it: an optional quiz is in neither N nor M.
    progressByCourse(db, user?.id ?? null, [courseId]),
    user ? findCompletion(db, user.id, courseId) : Promise.resolve(undefined),
  ])
  // Every counted lesson complete and no completion (decision 0110): the course completes now, not never.
  let completion = found
  if (!completion && user && source && allLessonsDone(counts.get(courseId))) {
    await completeWhenShownDone(db, user, course, publicUrl)
    completion = await findCompletion(db, user.id, courseId)
  }
  const added = completion ? await lessonsAddedSince(db, courseId, completion.completed_at) : 0
  // Drip: the learner's sections not yet open, with their dates (an editor previewing sees everything).
  const dripped = user && source && !editor ? await sectionsLockedUntil(db, user.id, course, source) : new Map()
  const sections = curriculum.map((section) => ({
    id: section.id,
    title: section.title,
    unlocksAt: dripped.get(section.id)?.toISOString() ?? null,
    lessons: section.lessons.map((lesson) => {
      const preview = lesson.isPreview && course.status === 'published'
      const dripUntil: Date | undefined = preview ? undefined : dripped.get(section.id)
      return {
        ...lesson,
        locked: !(source || editor || preview) || dripUntil !== undefined,
        /** Set while the lesson waits for its section's drip date. */
        unlocksAt: dripUntil?.toISOString() ?? null,
        completed: done.has(lesson.id),
      }
    }),
  }))
  const lessons = sections.flatMap((section) => section.lessons)
  const count = counts.get(courseId) ?? { completed: 0, total: 0 }
  return {
    course: { id: course.id, title: course.title, instructor: course.instructorName, certificate: course.certificate },
    hasAccess: source !== null || editor,
    /** An editor of the course previewing it in the studio (no progress is saved). */
    editorPreview: source === null && editor,
    sections,
    progress: progressSummary(count.completed, count.total),
    resumeLessonId: resumeLesson(lessons, progressRows),
    completion: completion
      ? {
          completedAt: completion.completed_at.toISOString(),
          certificateId: completion.certificate_id,
          lessonsAddedSince: added,
        }
      : null,
  }
}

/** The last lesson worked on when it is unfinished, else the next open unfinished lesson, else the first lesson. */
function resumeLesson(
  lessons: { id: string; locked: boolean; completed: boolean }[],
  progressRows: { lesson_id: string; updated_at: Date }[],
): string | null {
  const open = lessons.filter((lesson) => !lesson.locked)
  const latest = [...progressRows].sort((a, b) => b.updated_at.getTime() - a.updated_at.getTime())[0]
  const index = latest ? open.findIndex((lesson) => lesson.id === latest.lesson_id) : -1
  if (index >= 0 && !open[index]?.completed) return open[index]?.id ?? null
  const next = open.slice(index + 1).find((lesson) => !lesson.completed) ?? open.find((lesson) => !lesson.completed)
  return next?.id ?? open[0]?.id ?? lessons[0]?.id ?? null
}

/** One lesson: its content only when the learner may open it; otherwise its title and `locked: true`. */
export async function openLesson(db: DB, user: AccessUser, courseId: string, lessonId: string) {
  const course = await courseOrNotFound(db, user, courseId)
  const lesson = await findLessonRow(db, courseId, lessonId)
  if (!lesson) throw new DomainError('not_found', 'Lesson not found')
  const outline = {
    id: lesson.id,
    courseId: course.id,
    courseTitle: course.title,
    title: lesson.title,
    kind: lesson.kind,
    durationSeconds: lesson.duration_seconds,
    isPreview: lesson.is_preview,
  }
  if (!(await canPreviewLesson(db, user, course, { id: lesson.id, isPreview: lesson.is_preview }))) {
    const source = user ? await courseAccessSource(db, user, course) : null
    const until = user && source ? await lessonLockedUntil(db, user.id, course, lesson.id, source) : null
    return { ...outline, locked: true as const, unlocksAt: until?.toISOString() ?? null, content: null, progress: null }
  }
  // markdown-it loads with the first lesson opened, not at start-up.
  const [attachments, progressRows, { renderMarkdown }, renditions] = await Promise.all([
    listAttachments(db, lesson.id),
    user ? progressOfCourse(db, user.id, courseId) : Promise.resolve([]),
    import('../learning/markdown.ts'),
    lesson.video_key ? renditionsOfKey(db, lesson.video_key) : Promise.resolve(null),
  ])
  const hls = renditions?.prefix ? `/api/learn/hls/${lesson.id}/` : null
  const progress = progressRows.find((row) => row.lesson_id === lesson.id)
  const embed = lesson.video_url ? parseVideoUrl(lesson.video_url) : null
  return {
    ...outline,
    locked: false as const,
    unlocksAt: null,
    content: {
      html: renderMarkdown(lesson.body_markdown),
      video: lesson.video_key
        ? {
            type: 'file' as const,
            src: `/api/learn/media/${lesson.id}`,
            /** The HLS master playlist once the renditions exist (decision 0064); until then the file plays. */
            hls: hls ? `${hls}master.m3u8` : null,
            poster: hls ? `${hls}poster.jpg` : null,
          }
        : embed
          ? { type: 'embed' as const, src: embed.embedUrl, provider: embed.provider }
          : null,
      attachments: attachments.map((file) => ({
        id: file.id,
        name: file.file_name,
        sizeBytes: file.size_bytes,
        url: `/api/learn/attachments/${file.id}`,
      })),
    },
    progress: progress
      ? {
          positionSeconds: progress.position_seconds,
          watchedSeconds: progress.watched_seconds,
          completed: progress.completed_at !== null,
        }
      : { positionSeconds: 0, watchedSeconds: 0, completed: false },
  }
}

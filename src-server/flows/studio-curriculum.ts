// The curriculum builder's use cases: sections and lessons added, renamed, arranged and deleted, and a lesson's
// content (Markdown text, a YouTube/Vimeo link, or a finished video upload claimed for it: one any of the course's
// editors made for the course, decision 0138). Each is one transaction after the course's editor check and its
// curriculum lock; a replaced or deleted video gives its bytes back to the plan that counted them (creators/uploads.ts)
// and its stored file is removed after the commit.
import type { z } from 'zod'
import type { CourseStatus } from '../../db/types.ts'
import { parseLessonDuration } from '../../src-shared/lesson-duration.ts'
import type {
  addLessonInput,
  addSectionInput,
  arrangeInput,
  renameSectionInput,
  sectionRef,
  updateLessonInput,
} from '../../src-shared/schemas/studio.ts'
import { isOnSale } from '../catalog/studio-courses.ts'
import {
  addLesson,
  addSection,
  arrangeCurriculum,
  deleteLesson,
  deleteSection,
  findStudioLesson,
  type LessonWrite,
  lessonContentType,
  lockCurriculum,
  readStudioCurriculum,
  renameSection,
  sectionLessonIds,
  setLessonPreview,
  writeLesson,
} from '../catalog/studio-curriculum.ts'
import { assertCourseRole } from '../creators/course-team.ts'
import { renditionsOfKey } from '../creators/upload-rows.ts'
import { claimUpload, releaseLessonUploads } from '../creators/uploads.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import type { FileStorage } from '../storage/storage.ts'

type Removal = Pick<FileStorage, 'remove'>

/** Runs one curriculum step for an editor of the course, then answers the curriculum as it now is. */
async function step<T>(db: DB, userId: string, courseId: string, work: (trx: DB, status: CourseStatus) => Promise<T>) {
  await assertCourseRole(db, userId, courseId)
  const result = await db.transaction().execute(async (trx) => {
    const course = await lockCurriculum(trx, courseId)
    return work(trx, course.status)
  })
  return { result, curriculum: await readStudioCurriculum(db, courseId) }
}

/** Removes released files after the commit; a file left behind is the storage sweep's to collect. */
async function removeFiles(storage: Removal, keys: string[]) {
  await Promise.all(keys.map((key) => storage.remove(key).catch(() => undefined)))
}

export const addStudioSection = (db: DB, userId: string, input: z.output<typeof addSectionInput>) =>
  step(db, userId, input.courseId, (trx) => addSection(trx, input.courseId, input.title))

export const renameStudioSection = (db: DB, userId: string, input: z.output<typeof renameSectionInput>) =>
  step(db, userId, input.courseId, (trx) => renameSection(trx, input.courseId, input.sectionId, input.title))

export async function deleteStudioSection(
  db: DB,
  userId: string,
  input: z.output<typeof sectionRef>,
  storage: Removal,
) {
  const { result: keys, curriculum } = await step(db, userId, input.courseId, async (trx) => {
    const lessonIds = await sectionLessonIds(trx, input.courseId, input.sectionId)
    const released = await releaseLessonUploads(trx, lessonIds)
    await deleteSection(trx, input.courseId, input.sectionId)
    return released
  })
  await removeFiles(storage, keys)
  return { curriculum }
}

export const arrangeStudioCurriculum = (db: DB, userId: string, input: z.output<typeof arrangeInput>) =>
  step(db, userId, input.courseId, (trx) => arrangeCurriculum(trx, input.courseId, input.sections))

export const addStudioLesson = (db: DB, userId: string, input: z.output<typeof addLessonInput>) =>
  step(db, userId, input.courseId, (trx, status) =>
    addLesson(trx, input.courseId, input.sectionId, input.title, isOnSale(status)),
  )

export const setStudioLessonPreview = (
  db: DB,
  userId: string,
  input: { courseId: string; lessonId: string; isPreview: boolean },
) => step(db, userId, input.courseId, (trx) => setLessonPreview(trx, input.courseId, input.lessonId, input.isPreview))

export async function deleteStudioLesson(
  db: DB,
  userId: string,
  input: { courseId: string; lessonId: string },
  storage: Removal,
) {
  const { result: keys, curriculum } = await step(db, userId, input.courseId, async (trx) => {
    await findStudioLesson(trx, input.courseId, input.lessonId)
    const released = await releaseLessonUploads(trx, [input.lessonId])
    await deleteLesson(trx, input.courseId, input.lessonId)
    return released
  })
  await removeFiles(storage, keys)
  return { curriculum }
}

/** One lesson with its content, for the lesson editor. */
export async function studioLesson(db: DB, userId: string, courseId: string, lessonId: string) {
  await assertCourseRole(db, userId, courseId)
  const row = await findStudioLesson(db, courseId, lessonId)
  const renditions = row.video_key ? await renditionsOfKey(db, row.video_key) : null
  const processing = renditions?.status === 'queued' || renditions?.status === 'processing'
  return {
    id: row.id,
    courseId,
    title: row.title,
    isPreview: row.is_preview,
    pendingReview: row.pending_review,
    type: lessonContentType(row),
    bodyMarkdown: row.body_markdown,
    videoUrl: row.video_url ?? '',
    hasVideoFile: row.video_key !== null,
    videoDurationSeconds: row.video_key ? row.video_duration_seconds : null,
    /** The uploaded video's renditions being made (decision 0064): their percent, else null. */
    videoProcessingPercent: processing ? (renditions?.percent ?? 0) : null,
    durationSeconds: row.duration_seconds,
  }
}

/** Saves a lesson's title, preview flag and content; a new upload is claimed in the same transaction. */
export async function saveStudioLesson(
  db: DB,
  userId: string,
  input: z.output<typeof updateLessonInput>,
  storage: Removal,
) {
  const { content } = input
  const { result: keys } = await step(db, userId, input.courseId, async (trx) => {
    const before = await findStudioLesson(trx, input.courseId, input.lessonId)
    const values: LessonWrite = {
      title: input.title,
      isPreview: input.isPreview,
      kind: content.type === 'text' ? 'article' : content.type === 'quiz' ? 'quiz' : 'video',
      bodyMarkdown: content.bodyMarkdown,
      videoUrl: content.type === 'embed' ? content.videoUrl : null,
      videoKey: null,
      videoDurationSeconds: null,
      durationSeconds: content.type === 'upload' ? 0 : parseLessonDuration(content.duration),
    }
    let keep: string | undefined
    if (content.type === 'upload') {
      if (content.uploadId) {
        // Any editor's upload for this course (decision 0138), or the editor's own made for no course.
        const upload = await claimUpload(trx, { userId, courseId: input.courseId }, content.uploadId, input.lessonId)
        keep = upload.id
        values.videoKey = upload.storageKey
        values.videoDurationSeconds = upload.durationSeconds === null ? null : Math.round(upload.durationSeconds)
      } else if (before.video_key) {
        values.videoKey = before.video_key
        values.videoDurationSeconds = before.video_duration_seconds
        keep = 'current'
      } else {
        throw new DomainError('invalid', 'Upload a video for this lesson first', { field: 'uploadId' })
      }
      values.durationSeconds = values.videoDurationSeconds ?? before.duration_seconds
    }
    // The old file goes when the lesson no longer uses it (another upload, or a text or link lesson now).
    const released = keep === 'current' ? [] : await releaseLessonUploads(trx, [input.lessonId], keep)
    await writeLesson(trx, input.courseId, input.lessonId, values)
    return released
  })
  await removeFiles(storage, keys)
  return studioLesson(db, userId, input.courseId, input.lessonId)
}

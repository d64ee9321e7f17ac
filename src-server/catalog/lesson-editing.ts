// A lesson's content edited by staff: kind, Markdown body, video (an uploaded file or a YouTube/Vimeo link) and
// attachments. Only files the upload routes stored under private/lessons/ (or the lesson's own current ones) are accepted.
// The change and its audit record share one transaction.

import path from 'node:path'
import type { z } from 'zod'
import type { lessonContentInput } from '../../src-shared/schemas/admin.ts'
import * as audit from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { LESSON_FILE_PREFIX, LESSON_VIDEO_PREFIX } from '../storage/keys.ts'
import { type FileStorage, isSafeKey } from '../storage/storage.ts'
import { storedVideoDuration } from '../storage/video-duration.ts'
import { refreshCourseDuration } from './curriculum-editing.ts'
import { findLessonRow, listAttachments } from './repository-lessons.ts'

type LessonContent = z.output<typeof lessonContentInput>

const TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
}

export async function lessonContentForStaff(db: DB, courseId: string, lessonId: string) {
  const lesson = await findLessonRow(db, courseId, lessonId, true)
  if (!lesson) throw new DomainError('not_found', 'Lesson not found')
  const attachments = await listAttachments(db, lessonId)
  return {
    courseId,
    lessonId,
    title: lesson.title,
    kind: lesson.kind,
    bodyMarkdown: lesson.body_markdown,
    videoUrl: lesson.video_url ?? '',
    videoKey: lesson.video_key,
    /** The uploaded video's length read from the file (null: no uploaded file). */
    videoDurationSeconds: lesson.video_key ? lesson.video_duration_seconds : null,
    durationSeconds: lesson.duration_seconds,
    attachments: attachments.map((file) => ({
      id: file.id,
      name: file.file_name,
      key: file.storage_key,
      sizeBytes: file.size_bytes,
    })),
  }
}

export async function updateLessonContent(
  db: DB,
  actor: audit.Actor,
  input: LessonContent,
  storage: Pick<FileStorage, 'size' | 'read'>,
) {
  const before = await lessonContentForStaff(db, input.courseId, input.lessonId)
  const videoKey = input.kind === 'video' && input.videoUrl === '' ? input.videoKey : null
  // A new file's length is read from the file itself (the editor never types it); the same file keeps its length.
  let videoSeconds: number | null | undefined = videoKey ? undefined : null
  if (videoKey && videoKey !== before.videoKey) {
    if (!(videoKey.startsWith(LESSON_VIDEO_PREFIX) && isSafeKey(videoKey))) {
      throw new DomainError('invalid', 'Please upload the video again')
    }
    const seconds = await storedVideoDuration(storage, videoKey)
    if (seconds === null) throw new DomainError('invalid', 'Please upload the video again')
    videoSeconds = Math.round(seconds)
  }
  const kept = new Map(before.attachments.map((file) => [file.id, file]))
  const newFiles: { name: string; key: string; size: number; type: string }[] = []
  for (const file of input.attachments) {
    if (file.id && kept.has(file.id)) continue
    if (!file.key.startsWith(LESSON_FILE_PREFIX) || !isSafeKey(file.key))
      throw new DomainError('invalid', 'Please upload the file again')
    const size = await storage.size(file.key)
    if (size === null) throw new DomainError('invalid', 'Please upload the file again')
    newFiles.push({ ...file, size, type: TYPES[path.extname(file.key)] ?? 'application/octet-stream' })
  }
  const keepIds = input.attachments.flatMap((file) => (file.id && kept.has(file.id) ? [file.id] : []))
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('lessons')
      .set({
        kind: input.kind,
        body_markdown: input.bodyMarkdown,
        video_url: input.kind === 'video' && input.videoUrl !== '' ? input.videoUrl : null,
        video_key: videoKey,
        ...(videoSeconds !== undefined ? { video_duration_seconds: videoSeconds } : {}),
        // The curriculum shows the file's length; the course's total follows (refreshCourseDuration below).
        ...(videoSeconds ? { duration_seconds: videoSeconds } : {}),
        updated_at: clock.now(),
      })
      .where('id', '=', input.lessonId)
      .execute()
    if (videoSeconds) await refreshCourseDuration(trx, input.courseId)
    let removed = trx.deleteFrom('lesson_attachments').where('lesson_id', '=', input.lessonId)
    if (keepIds.length) removed = removed.where('id', 'not in', keepIds)
    await removed.execute()
    for (const [index, file] of input.attachments.entries()) {
      if (file.id && kept.has(file.id)) {
        await trx
          .updateTable('lesson_attachments')
          .set({ position: index, file_name: file.name })
          .where('id', '=', file.id)
          .execute()
      }
    }
    if (newFiles.length) {
      await trx
        .insertInto('lesson_attachments')
        .values(
          newFiles.map((file) => ({
            lesson_id: input.lessonId,
            position: input.attachments.findIndex((f) => f.key === file.key),
            file_name: file.name,
            storage_key: file.key,
            content_type: file.type,
            size_bytes: file.size,
          })),
        )
        .execute()
    }
    const after = await lessonContentForStaff(trx, input.courseId, input.lessonId)
    await audit.record(trx, actor, 'course.lesson_content', { type: 'course', id: input.courseId, before, after })
  })
  return lessonContentForStaff(db, input.courseId, input.lessonId)
}

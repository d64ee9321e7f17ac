// A small real video made by ffmpeg for the tests of lesson videos: 640×360 test picture with a 440 Hz tone, H.264 and
// AAC (2 s is about 40 kB, encoded in well under a second). `faststart` puts the index first, as a phone's upload has it.
import { execFileSync } from 'node:child_process'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { createUser } from './factories.ts'
import { lessonsOf } from './learning.ts'

export function makeTestVideo(ffmpeg: string, file: string, seconds = 2, options: { faststart?: boolean } = {}) {
  execFileSync(ffmpeg, [
    ...[
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=640x360:rate=25:duration=${seconds}`,
    ],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...[
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      ...(options.faststart ? ['-movflags', '+faststart'] : []),
      file,
    ],
  ])
}

/**
 * The course's first locked video lesson, now playing the stored video at `key`, and that video's upload row (a new
 * uploader's, 2 s long, stored, its transcode queued).
 */
export async function lessonWithQueuedVideo(
  db: Kysely<Database>,
  courseId: string,
  upload: { id: string; key: string; sizeBytes: number },
) {
  const locked = (await lessonsOf(db, courseId)).find((lesson) => lesson.kind === 'video' && !lesson.is_preview)
  if (!locked) throw new Error('the seed should give this course a locked video lesson')
  const uploader = await createUser(db)
  await db.updateTable('lessons').set({ video_key: upload.key }).where('id', '=', locked.id).execute()
  await db
    .insertInto('creator_uploads')
    .values({
      id: upload.id,
      user_id: uploader.id,
      storage_owner_id: uploader.id,
      size_bytes: upload.sizeBytes,
      status: 'stored',
      storage_key: upload.key,
      file_name: 'lesson.mp4',
      content_type: 'video/mp4',
      duration_seconds: 2,
      lesson_id: locked.id,
      transcode_status: 'queued',
    })
    .execute()
  return { lessonId: locked.id, uploader }
}

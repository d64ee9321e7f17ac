// What the lesson media routes (http/lesson-media.ts) ask about a lesson's uploaded video (decision 0064): its HLS
// renditions, whether the viewer may have the original (the course's editors), and a creator's own original.
import { courseRoleOf } from '../creators/course-team.ts'
import { findUploadOf, renditionsOfKey, type VideoRenditions } from '../creators/upload-rows.ts'
import type { DB } from '../kernel/db.ts'

export type { VideoRenditions }

/** The renditions of the stored upload behind a lesson's video key, or null (a demo video, a staff upload). */
export function lessonVideoRenditions(db: DB, videoKey: string): Promise<VideoRenditions | null> {
  return renditionsOfKey(db, videoKey)
}

/** Whether this user edits the course (owner, co-instructor, school instructor): they get the original file. */
export async function editsCourse(db: DB, userId: string, courseId: string): Promise<boolean> {
  return (await courseRoleOf(db, userId, courseId)) !== null
}

/** The creator's own stored upload, for its download; null for another's, a released one, or one in progress. */
export async function ownOriginal(db: DB, userId: string, uploadId: string) {
  const upload = await findUploadOf(db, userId, uploadId)
  if (upload?.status !== 'stored' || !upload.storageKey) return null
  return { storageKey: upload.storageKey, contentType: upload.contentType, fileName: upload.fileName }
}

// What the lesson media routes (http/lesson-media.ts) ask about a lesson's uploaded video (decision 0064): its HLS
// renditions, whether the viewer may have the original (the course's editors), and a creator's own original.
import { courseRoleOf } from '../creators/course-team.ts'
import { findUpload, renditionsOfKey, type VideoRenditions } from '../creators/upload-rows.ts'
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

/**
 * A stored upload for its download, by its uploader or the creator whose plan counts it (a course owner, for a
 * co-instructor's upload: decision 0138); null for anyone else's, a released one, or one in progress.
 */
export async function ownOriginal(db: DB, userId: string, uploadId: string) {
  const upload = await findUpload(db, uploadId)
  if (!upload || (upload.userId !== userId && upload.storageOwnerId !== userId)) return null
  if (upload.status !== 'stored' || !upload.storageKey) return null
  return { storageKey: upload.storageKey, contentType: upload.contentType, fileName: upload.fileName }
}

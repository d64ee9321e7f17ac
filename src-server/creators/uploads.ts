// The video bytes a creator stores (creator_uploads): a tus upload is recorded when it starts ('uploading'), counts
// against the plan once finished and checked ('stored'), and gives its bytes back when its lesson is deleted or the
// creator removes it ('released'). The studio attaches a stored upload to a lesson by its id.
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'

export interface StoredUpload {
  id: string
  storageKey: string
  sizeBytes: number
  durationSeconds: number | null
  contentType: string | null
  fileName: string
}

/**
 * A finished upload ready to become a lesson's video, now tied to `lessonId` (in the caller's transaction with the
 * lesson's own change): one made for the lesson's course by any of its editors (decision 0138; the caller has checked
 * the editor's role), or the editor's own upload made for no course and counted on their own plan. Any other upload
 * is answered as not found.
 */
export async function claimUpload(
  db: DB,
  editor: { userId: string; courseId: string },
  uploadId: string,
  lessonId: string,
): Promise<StoredUpload> {
  const { userId, courseId } = editor
  const row = await db
    .updateTable('creator_uploads')
    .set({ lesson_id: lessonId })
    .where('id', '=', uploadId)
    .where((eb) =>
      eb.or([
        eb('course_id', '=', courseId),
        eb.and([eb('course_id', 'is', null), eb('user_id', '=', userId), eb('storage_owner_id', '=', userId)]),
      ]),
    )
    .where('status', '=', 'stored')
    // An application's sample video stays the application's.
    .where('purpose', '=', 'lesson')
    // An upload already used by another lesson stays that lesson's (one file, one lesson).
    .where((eb) => eb.or([eb('lesson_id', 'is', null), eb('lesson_id', '=', lessonId)]))
    .returning(['id', 'storage_key', 'size_bytes', 'duration_seconds', 'content_type', 'file_name'])
    .executeTakeFirst()
  if (!row?.storage_key) throw new DomainError('not_found', 'That upload was not found or has not finished')
  return {
    id: row.id,
    storageKey: row.storage_key,
    sizeBytes: Number(row.size_bytes),
    durationSeconds: row.duration_seconds,
    contentType: row.content_type,
    fileName: row.file_name,
  }
}

/**
 * Gives back the bytes of the uploads tied to these lessons (deleted lessons, or a lesson whose video was
 * replaced), in the caller's transaction. Returns the storage keys, for the caller to delete after commit.
 */
export async function releaseLessonUploads(db: DB, lessonIds: string[], keep?: string): Promise<string[]> {
  if (lessonIds.length === 0) return []
  let query = db
    .updateTable('creator_uploads')
    .set({ status: 'released' })
    .where('lesson_id', 'in', lessonIds)
    .where('status', '=', 'stored')
  if (keep) query = query.where('id', '!=', keep)
  const rows = await query.returning('storage_key').execute()
  return rows.flatMap((row) => (row.storage_key ? [row.storage_key] : []))
}

/**
 * An erased creator's stored videos that no lesson uses: released (their files removed after commit; the renditions
 * go with the next sweep) and their file names forgotten. A lesson's video stays with the course its buyers keep.
 */
export async function releaseUnusedUploadsOf(db: DB, userId: string): Promise<string[]> {
  const rows = await db
    .updateTable('creator_uploads')
    .set({ status: 'released', file_name: '' })
    .where('user_id', '=', userId)
    .where('status', '=', 'stored')
    .where('lesson_id', 'is', null)
    .returning('storage_key')
    .execute()
  return rows.flatMap((row) => (row.storage_key ? [row.storage_key] : []))
}

// The rows of creators' video uploads (creator_uploads) as the tus routes and the studio read and change them:
// one row per tus upload, owned by the creator who started it ('uploading' → 'stored' → 'released').
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export interface UploadRow {
  id: string
  userId: string
  status: 'uploading' | 'stored' | 'released'
  fileName: string
  sizeBytes: number
  durationSeconds: number | null
  contentType: string | null
  storageKey: string | null
  lessonId: string | null
  createdAt: Date
  finishedAt: Date | null
}

const COLUMNS = [
  'id',
  'user_id',
  'status',
  'file_name',
  'size_bytes',
  'duration_seconds',
  'content_type',
  'storage_key',
  'lesson_id',
  'created_at',
  'finished_at',
] as const

type Row = {
  id: string
  user_id: string
  status: UploadRow['status']
  file_name: string
  size_bytes: string | number
  duration_seconds: number | null
  content_type: string | null
  storage_key: string | null
  lesson_id: string | null
  created_at: Date
  finished_at: Date | null
}

const toUpload = (row: Row): UploadRow => ({
  id: row.id,
  userId: row.user_id,
  status: row.status,
  fileName: row.file_name,
  sizeBytes: Number(row.size_bytes),
  durationSeconds: row.duration_seconds,
  contentType: row.content_type,
  storageKey: row.storage_key,
  lessonId: row.lesson_id,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
})

/** A file name as the creator sees it in lists: safe characters only, at most 120 of them. */
export function uploadFileName(name: string | null | undefined): string {
  return (name ?? '').replace(/[^\w .()-]/g, '_').slice(0, 120) || 'video'
}

export async function insertUpload(
  db: DB,
  values: { id: string; userId: string; sizeBytes: number; fileName: string },
): Promise<void> {
  await db
    .insertInto('creator_uploads')
    .values({ id: values.id, user_id: values.userId, size_bytes: values.sizeBytes, file_name: values.fileName })
    .execute()
}

/** The upload with this id, whoever owns it (the routes compare the owner themselves), or null. */
export async function findUpload(db: DB, id: string): Promise<UploadRow | null> {
  const row = await db.selectFrom('creator_uploads').select(COLUMNS).where('id', '=', id).executeTakeFirst()
  return row ? toUpload(row) : null
}

/** This creator's upload, or null for another creator's (answered as not found). */
export async function findUploadOf(db: DB, userId: string, id: string): Promise<UploadRow | null> {
  const row = await db
    .selectFrom('creator_uploads')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row ? toUpload(row) : null
}

/** The creator's uploads in progress and stored (released ones are history), newest first. */
export async function listUploadsOf(db: DB, userId: string, limit = 200): Promise<UploadRow[]> {
  const rows = await db
    .selectFrom('creator_uploads')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('status', '!=', 'released')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute()
  return rows.map(toUpload)
}

/**
 * Takes the creator's lock for storage decisions: two uploads of one creator finishing together wait for each
 * other here, so the second counts the first's bytes (in the caller's transaction, until it ends).
 */
export async function lockCreatorStorage(trx: DB, userId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('creators')
    .select('user_id')
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst()
  return Boolean(row)
}

/** Marks an upload in progress as stored (it counts against the plan from now); false if it was not in progress. */
export async function markUploadStored(
  db: DB,
  id: string,
  values: { storageKey: string; sizeBytes: number; durationSeconds: number | null; contentType: string },
): Promise<boolean> {
  const result = await db
    .updateTable('creator_uploads')
    .set({
      status: 'stored',
      storage_key: values.storageKey,
      size_bytes: values.sizeBytes,
      duration_seconds: values.durationSeconds,
      content_type: values.contentType,
      finished_at: clock.now(),
    })
    .where('id', '=', id)
    .where('status', '=', 'uploading')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Forgets an upload that never stored anything (refused at finish, cancelled, abandoned). */
export async function deleteUnstoredUpload(db: DB, id: string): Promise<void> {
  await db.deleteFrom('creator_uploads').where('id', '=', id).where('status', '=', 'uploading').execute()
}

/**
 * Gives back a stored upload no lesson uses (the creator removes it): returns its storage key for the caller to
 * delete after commit, or null when there is no such upload of this creator (another's, attached, in progress).
 */
export async function releaseUnattachedUpload(db: DB, userId: string, id: string): Promise<string | null> {
  const row = await db
    .updateTable('creator_uploads')
    .set({ status: 'released' })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', '=', 'stored')
    .where('lesson_id', 'is', null)
    .returning('storage_key')
    .executeTakeFirst()
  return row ? (row.storage_key ?? '') : null
}

/** Uploads still in progress that started before `olderThan`: abandoned. */
export async function abandonedUploadIds(db: DB, olderThan: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('creator_uploads')
    .select('id')
    .where('status', '=', 'uploading')
    .where('created_at', '<', olderThan)
    .execute()
  return rows.map((row) => row.id)
}

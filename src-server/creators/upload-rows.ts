// The rows of creators' video uploads (creator_uploads) as the tus routes and the studio read and change them:
// one row per tus upload, owned by the person who started it ('uploading' → 'stored' → 'released'). A lesson video
// uploaded for a course names it and counts against its owner's plan (`storage_owner_id`, decision 0138); one
// without a course is the uploader's own. An applicant's sample video (purpose 'application') has a row too: no plan
// counts it and no lesson can use it.
import { randomUUID } from 'node:crypto'
import type { TranscodeStatus, UploadPurpose } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import type { JobGone } from '../kernel/relay.ts'
import { safeFileName } from '../storage/document-type.ts'

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
  transcodeStatus: TranscodeStatus | null
  transcodePercent: number
  purpose: UploadPurpose
  /** The course it was uploaded for, or null (the uploader's own). */
  courseId: string | null
  /** Whose plan storage counts it: the course owner's, or the uploader's. */
  storageOwnerId: string
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
  'transcode_status',
  'transcode_percent',
  'purpose',
  'course_id',
  'storage_owner_id',
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
  transcode_status: TranscodeStatus | null
  transcode_percent: number
  purpose: UploadPurpose
  course_id: string | null
  storage_owner_id: string
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
  transcodeStatus: row.transcode_status,
  transcodePercent: row.transcode_percent,
  purpose: row.purpose,
  courseId: row.course_id,
  storageOwnerId: row.storage_owner_id,
})

/** An uploaded file's safe name (storage's one rule), `video` when nothing is left unless told otherwise. */
export const uploadFileName = (name: string | null | undefined, fallback = 'video'): string =>
  safeFileName(name, fallback)

/** A new upload in progress; counted (once stored) against `storageOwnerId`'s plan, the uploader's by default. */
export async function insertUpload(
  db: DB,
  values: {
    id: string
    userId: string
    sizeBytes: number
    fileName: string
    purpose?: UploadPurpose
    courseId?: string | null
    storageOwnerId?: string
  },
): Promise<void> {
  await db
    .insertInto('creator_uploads')
    .values({
      id: values.id,
      user_id: values.userId,
      size_bytes: values.sizeBytes,
      file_name: values.fileName,
      purpose: values.purpose ?? 'lesson',
      course_id: values.courseId ?? null,
      storage_owner_id: values.storageOwnerId ?? values.userId,
    })
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

/**
 * The creator's uploads in progress and stored (released ones are history), newest first: those they made and those
 * their plan counts (their course teams' uploads for their courses).
 */
export async function listUploadsOf(db: DB, userId: string, limit = 200): Promise<UploadRow[]> {
  const rows = await db
    .selectFrom('creator_uploads')
    .select(COLUMNS)
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('storage_owner_id', '=', userId)]))
    .where('status', '!=', 'released')
    .where('purpose', '=', 'lesson')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute()
  return rows.map(toUpload)
}

/**
 * Takes the creator's lock for storage decisions: two uploads counted against one creator's plan (theirs or their
 * course team's) finishing together wait for each other here, so the second counts the first's bytes (in the caller's
 * transaction, until it ends).
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

/**
 * Marks an upload in progress as stored (a lesson video counts against the plan from now, and its renditions are
 * wanted; an application's sample video is neither); false if it was not in progress.
 */
export async function markUploadStored(
  db: DB,
  id: string,
  values: { storageKey: string; sizeBytes: number; durationSeconds: number | null; contentType: string },
  options: { transcode?: boolean } = {},
): Promise<boolean> {
  const transcode = options.transcode ?? true
  const result = await db
    .updateTable('creator_uploads')
    .set({
      status: 'stored',
      storage_key: values.storageKey,
      size_bytes: values.sizeBytes,
      duration_seconds: values.durationSeconds,
      content_type: values.contentType,
      finished_at: clock.now(),
      // Its renditions are wanted: the transcode relay puts it on the queue (decision 0064).
      transcode_status: transcode ? 'queued' : null,
      transcode_percent: 0,
    })
    .where('id', '=', id)
    .where('status', '=', 'uploading')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/**
 * Records a lesson video staff stored through /api/admin/lesson-video as a stored upload whose renditions are wanted
 * (decision 0064): the transcode relay puts it on the queue as it does a creator's. Marked as staff's, it counts
 * against no creator's plan, and the storage sweep releases it once no lesson uses it. Returns its id.
 */
export async function insertStaffUpload(
  db: DB,
  values: {
    userId: string
    storageKey: string
    sizeBytes: number
    durationSeconds: number | null
    contentType: string
    fileName: string
  },
): Promise<string> {
  const id = `staff-${randomUUID()}`
  const now = clock.now()
  await db
    .insertInto('creator_uploads')
    .values({
      id,
      user_id: values.userId,
      size_bytes: values.sizeBytes,
      status: 'stored',
      storage_key: values.storageKey,
      file_name: uploadFileName(values.fileName),
      content_type: values.contentType,
      duration_seconds: values.durationSeconds,
      created_at: now,
      finished_at: now,
      transcode_status: 'queued',
      transcode_percent: 0,
      staff_upload: true,
      storage_owner_id: values.userId,
    })
    .execute()
  return id
}

/** Forgets an upload that never stored anything (refused at finish, cancelled, abandoned). */
export async function deleteUnstoredUpload(db: DB, id: string): Promise<void> {
  await db.deleteFrom('creator_uploads').where('id', '=', id).where('status', '=', 'uploading').execute()
}

/**
 * Gives back a stored upload no lesson uses (its uploader, or the creator whose plan counts it, removes it): returns
 * its storage key for the caller to delete after commit, or null when there is no such upload of this creator
 * (another's, attached, in progress).
 */
export async function releaseUnattachedUpload(db: DB, userId: string, id: string): Promise<string | null> {
  const row = await db
    .updateTable('creator_uploads')
    .set({ status: 'released' })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('storage_owner_id', '=', userId)]))
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

// Renditions (decision 0064): 'queued' (written with 'stored') → relayed onto the queue (transcode_job_id) →
// 'processing' with a percentage → 'ready' (hls_prefix, hls_heights) or 'failed' / 'unavailable' (no ffmpeg).

/**
 * Stored uploads waiting for their transcode job, taken under lock (SKIP LOCKED) in the relay's transaction. With
 * `jobGone` (jobs/queue.ts), also those still 'queued' whose job is gone without a try having begun (each try threw
 * before startTranscode, say with the database failing over, or the job was dropped): they get a new job.
 */
export async function takeQueuedTranscodes(trx: DB, limit: number, jobGone?: JobGone): Promise<string[]> {
  const rows = await trx
    .selectFrom('creator_uploads')
    .select('id')
    .where('transcode_status', '=', 'queued')
    .where((eb) =>
      jobGone
        ? eb.or([eb('transcode_job_id', 'is', null), jobGone(eb.ref('transcode_job_id'))])
        : eb('transcode_job_id', 'is', null),
    )
    .where('status', '=', 'stored')
    .orderBy('finished_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute()
  return rows.map((row) => row.id)
}

/**
 * Transcodes begun ('processing') whose job is gone: its tries ran out without the row being settled (the worker
 * died, or the database failed, on the last one). Marked 'failed', as the last try's own failure would have been
 * (the original keeps playing, and the studio stops saying "processing"); their ids.
 */
export async function failAbandonedTranscodes(trx: DB, jobGone: JobGone, limit: number): Promise<string[]> {
  const rows = await trx
    .updateTable('creator_uploads')
    .set({ transcode_status: 'failed' })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('creator_uploads')
        .select('id')
        .where('transcode_status', '=', 'processing')
        .where('status', '=', 'stored')
        .where((inner) => jobGone(inner.ref('transcode_job_id')))
        .orderBy('finished_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .where('transcode_status', '=', 'processing')
    .returning('id')
    .execute()
  return rows.map((row) => row.id)
}

export async function setTranscodeJob(trx: DB, id: string, jobId: string): Promise<void> {
  await trx.updateTable('creator_uploads').set({ transcode_job_id: jobId }).where('id', '=', id).execute()
}

/**
 * Marks a stored upload's transcode started; its original's key, or null when it is gone or already done, or no
 * longer `jobId`'s (the relay gave it a new job once this one was gone; absent: a direct call, no such check).
 */
export async function startTranscode(db: DB, id: string, jobId?: string): Promise<string | null> {
  const row = await db
    .updateTable('creator_uploads')
    .set({ transcode_status: 'processing', transcode_percent: 0 })
    .where('id', '=', id)
    .where('status', '=', 'stored')
    .where('transcode_status', 'in', ['queued', 'processing', 'failed'])
    .$if(jobId !== undefined, (query) => query.where('transcode_job_id', '=', jobId ?? ''))
    .returning('storage_key')
    .executeTakeFirst()
  return row?.storage_key ?? null
}

export async function setTranscodePercent(db: DB, id: string, percent: number): Promise<void> {
  await db
    .updateTable('creator_uploads')
    .set({ transcode_percent: Math.max(0, Math.min(100, Math.round(percent))) })
    .where('id', '=', id)
    .where('transcode_status', '=', 'processing')
    .execute()
}

/** The renditions exist: the upload plays as HLS from now. False when the upload was released meanwhile. */
export async function finishTranscode(db: DB, id: string, values: { prefix: string; heights: number[] }) {
  const result = await db
    .updateTable('creator_uploads')
    .set({
      transcode_status: 'ready',
      transcode_percent: 100,
      hls_prefix: values.prefix,
      hls_heights: values.heights.join(','),
      transcoded_at: clock.now(),
    })
    .where('id', '=', id)
    .where('status', '=', 'stored')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function endTranscode(db: DB, id: string, status: 'failed' | 'unavailable'): Promise<void> {
  await db
    .updateTable('creator_uploads')
    .set({ transcode_status: status })
    .where('id', '=', id)
    .where('transcode_status', 'in', ['queued', 'processing'])
    .execute()
}

export interface VideoRenditions {
  uploadId: string
  status: TranscodeStatus | null
  percent: number
  /** Set once ready. */
  prefix: string | null
  heights: number[]
}

/** The renditions of the stored upload whose original is at `storageKey` (a lesson's video_key), or null. */
export async function renditionsOfKey(db: DB, storageKey: string): Promise<VideoRenditions | null> {
  const row = await db
    .selectFrom('creator_uploads')
    .select(['id', 'transcode_status', 'transcode_percent', 'hls_prefix', 'hls_heights'])
    .where('storage_key', '=', storageKey)
    .where('status', '=', 'stored')
    .executeTakeFirst()
  if (!row) return null
  const ready = row.transcode_status === 'ready' && row.hls_prefix !== null
  return {
    uploadId: row.id,
    status: row.transcode_status,
    percent: row.transcode_percent,
    prefix: ready ? row.hls_prefix : null,
    heights: ready ? (row.hls_heights ?? '').split(',').filter(Boolean).map(Number) : [],
  }
}

/** Of these lessons, those whose uploaded video is still waiting for or in its transcode, with the percentage. */
export async function lessonsWithVideoProcessing(db: DB, lessonIds: string[]): Promise<Map<string, number>> {
  if (lessonIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('creator_uploads')
    .select(['lesson_id', 'transcode_percent'])
    .where('lesson_id', 'in', lessonIds)
    .where('status', '=', 'stored')
    .where('transcode_status', 'in', ['queued', 'processing'])
    .execute()
  return new Map(rows.flatMap((row) => (row.lesson_id ? [[row.lesson_id, row.transcode_percent] as const] : [])))
}

/** This applicant's stored sample video (an 'application' upload), or null: another person's, unfinished, a lesson's. */
export async function storedApplicationUpload(db: DB, userId: string, id: string): Promise<UploadRow | null> {
  const row = await db
    .selectFrom('creator_uploads')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('purpose', '=', 'application')
    .where('status', '=', 'stored')
    .executeTakeFirst()
  return row ? toUpload(row) : null
}

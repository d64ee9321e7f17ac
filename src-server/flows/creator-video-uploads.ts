// A resumable lesson video upload (tus, http/tus-uploads.ts), from its start to its bytes stored:
//   start   for a course: anyone who may edit its curriculum (owner, co-instructor, school instructor), counted
//           against the course owner's plan, the one that pays for the team (decision 0138); without a course: a
//           creator's own upload ("My video uploads"), counted against their plan. A live plan, a length within 4 GB
//           and within what that plan's storage leaves → a row 'uploading' (nothing counts yet)
//   finish  the bytes judged by content (an MP4, MOV or WebM whose length the file tells), moved under the lesson
//           videos' prefix, then — under the counted creator's lock, so two uploads finishing together (the owner's
//           and a co-instructor's alike) cannot both pass the limit — checked against the plan again and marked
//           'stored': from then on they count
//   release a stored upload no lesson uses gives its bytes back (the studio's "delete")
//   sweep   uploads abandoned for a day are deleted with their bytes
// An applicant's sample video (purpose "application") takes the same path with its own rules: any signed-in person,
// up to 500 MB, judged the same way, stored under the applicant's private applications prefix, counted by no plan.

import { randomBytes } from 'node:crypto'
import { CREATOR_VIDEO_MAX_BYTES, type CreatorLimitOverrides } from '../../src-shared/creator-plans.ts'
import { APPLICATION_VIDEO_MAX_BYTES } from '../../src-shared/schemas/creators.ts'
import { applicationFilePrefix } from '../creators/applications.ts'
import { assertCourseRole, courseOwnerId } from '../creators/course-team.ts'
import { isCreator } from '../creators/repository.ts'
import {
  abandonedUploadIds,
  deleteUnstoredUpload,
  findUpload,
  findUploadOf,
  insertUpload,
  listUploadsOf,
  lockCreatorStorage,
  markUploadStored,
  releaseUnattachedUpload,
  type UploadRow,
  uploadFileName,
} from '../creators/upload-rows.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { LESSON_VIDEO_PREFIX } from '../storage/keys.ts'
import { detectVideoType, type MediaType } from '../storage/media.ts'
import { SNIFF_BYTES } from '../storage/staged-upload.ts'
import type { FileStorage } from '../storage/storage.ts'
import type { TusFiles } from '../storage/tus-store.ts'
import { readVideoDuration } from '../storage/video-duration.ts'
import { assertStorageFor, creatorStanding, NO_PLAN_MESSAGE, OWNER_NO_PLAN_MESSAGE } from './creator-standing.ts'

export const VIDEO_UPLOAD_MESSAGES = {
  notCreator: 'Only approved creators can upload videos',
  noLength: 'The upload must say its length (Upload-Length)',
  tooLarge: 'Videos can be up to 4 GB: please export a smaller file',
  empty: 'The video is empty',
  refused: 'Please select an MP4, MOV or WebM video',
  lengthUnknown: 'The video does not say how long it is: please export it again (MP4 or WebM)',
  notFound: 'Upload not found',
  applicationTooLarge: 'A sample video can be up to 500 MB: please export a shorter or smaller one',
} as const

/** Refuses a length a creator may never upload (the plan's room is checked by startVideoUpload). */
export function assertVideoLength(sizeBytes: number): void {
  if (!Number.isSafeInteger(sizeBytes) || sizeBytes < 0)
    throw new DomainError('invalid', VIDEO_UPLOAD_MESSAGES.noLength)
  if (sizeBytes === 0) throw new DomainError('invalid', VIDEO_UPLOAD_MESSAGES.empty)
  if (sizeBytes > CREATOR_VIDEO_MAX_BYTES) throw new DomainError('invalid', VIDEO_UPLOAD_MESSAGES.tooLarge)
}

/**
 * Refuses an upload counted against `ownerId`'s plan when that plan is not live (forbidden) or has no room for
 * `sizeBytes` more (precondition); `byTeam`: the uploader is not the owner, and is told it is the owner's plan.
 */
async function assertRoomFor(
  db: DB,
  ownerId: string,
  sizeBytes: number,
  overrides?: CreatorLimitOverrides,
  byTeam = false,
) {
  const standing = await creatorStanding(db, ownerId, overrides)
  if (!standing.limits) throw new DomainError('forbidden', byTeam ? OWNER_NO_PLAN_MESSAGE : NO_PLAN_MESSAGE)
  assertStorageFor(standing, sizeBytes, byTeam ? 'owner' : 'yours')
}

/**
 * Whose plan an upload counts against: for a course, its owner's once the uploader may edit its curriculum (anyone
 * else's course answers not found); without one, the uploader's own, who must be a creator.
 */
async function storageOwnerFor(db: DB, userId: string, courseId: string | null): Promise<string> {
  if (!courseId) {
    if (!(await isCreator(db, userId))) throw new DomainError('forbidden', VIDEO_UPLOAD_MESSAGES.notCreator)
    return userId
  }
  await assertCourseRole(db, userId, courseId)
  const ownerId = await courseOwnerId(db, courseId)
  // A course nobody owns (the shop's own) takes its videos through the staff editor, not here.
  if (!ownerId || !(await isCreator(db, ownerId))) {
    throw new DomainError('forbidden', VIDEO_UPLOAD_MESSAGES.notCreator)
  }
  return ownerId
}

/** Records a new upload of `sizeBytes` (for `courseId`, or the uploader's own), or refuses it. */
export async function startVideoUpload(
  db: DB,
  input: {
    userId: string
    uploadId: string
    sizeBytes: number
    fileName: string | null | undefined
    courseId?: string | null
  },
  overrides?: CreatorLimitOverrides,
): Promise<void> {
  const courseId = input.courseId ?? null
  const storageOwnerId = await storageOwnerFor(db, input.userId, courseId)
  assertVideoLength(input.sizeBytes)
  await assertRoomFor(db, storageOwnerId, input.sizeBytes, overrides, storageOwnerId !== input.userId)
  await insertUpload(db, {
    id: input.uploadId,
    userId: input.userId,
    sizeBytes: input.sizeBytes,
    fileName: uploadFileName(input.fileName),
    courseId,
    storageOwnerId,
  })
}

export interface FinishedVideo {
  storageKey: string
  sizeBytes: number
  durationSeconds: number
  contentType: string
}

async function judge(tus: TusFiles, uploadId: string, sizeBytes: number) {
  const reader = await tus.open(uploadId)
  try {
    const type = detectVideoType(await reader.read(0, Math.min(SNIFF_BYTES, sizeBytes)))
    if (!type) return { type: null, durationSeconds: null }
    const durationSeconds = await readVideoDuration(reader.read, sizeBytes).catch(() => null)
    return { type, durationSeconds }
  } finally {
    await reader.close()
  }
}

/**
 * A finished upload judged by its content: a video whose length can be read, or refused with the upload and its
 * row gone (lesson videos and applications' sample videos alike).
 */
async function judgedVideo(db: DB, tus: TusFiles, uploadId: string, sizeBytes: number) {
  const forget = async () => {
    await tus.remove(uploadId)
    await deleteUnstoredUpload(db, uploadId)
  }
  let judged: { type: MediaType | null; durationSeconds: number | null }
  try {
    judged = await judge(tus, uploadId, sizeBytes)
  } catch (error) {
    await forget()
    throw error
  }
  const { type, durationSeconds } = judged
  if (!type || durationSeconds === null) {
    await forget()
    throw new DomainError('invalid', type ? VIDEO_UPLOAD_MESSAGES.lengthUnknown : VIDEO_UPLOAD_MESSAGES.refused)
  }
  return { type, durationSeconds }
}

/**
 * Stores a finished upload of this uploader, or refuses it (the upload and its row are then gone, nothing counted):
 * not a video, a video that does not tell its length, the uploader no longer an editor of its course, or no room left
 * by now in the plan that counts it (the course owner's).
 */
export async function finishVideoUpload(
  deps: { db: DB; storage: FileStorage; tus: TusFiles },
  input: { userId: string; uploadId: string; sizeBytes: number },
  overrides?: CreatorLimitOverrides,
): Promise<FinishedVideo> {
  const { db, storage, tus } = deps
  const { userId, uploadId, sizeBytes } = input
  const { type, durationSeconds } = await judgedVideo(db, tus, uploadId, sizeBytes)
  const finished: FinishedVideo = {
    storageKey: `${LESSON_VIDEO_PREFIX}${clock.nowMs()}-${randomBytes(8).toString('hex')}.${type.ext}`,
    sizeBytes,
    durationSeconds: Math.round(durationSeconds),
    contentType: type.mime,
  }
  // The move happens outside the transaction (a copy of gigabytes in a bucket must not hold the creator's lock);
  // the bytes count only once the row says 'stored', and are deleted again if the check below refuses them.
  await tus.moveTo(storage, uploadId, sizeBytes, finished.storageKey, finished.contentType)
  try {
    await db.transaction().execute(async (trx) => {
      const row = await findUpload(trx, uploadId)
      if (!row || row.userId !== userId) throw new DomainError('not_found', VIDEO_UPLOAD_MESSAGES.notFound)
      // Taken off the team while the bytes arrived: nothing is kept for the course.
      if (row.courseId) await assertCourseRole(trx, userId, row.courseId)
      if (!(await lockCreatorStorage(trx, row.storageOwnerId))) {
        throw new DomainError('forbidden', VIDEO_UPLOAD_MESSAGES.notCreator)
      }
      await assertRoomFor(trx, row.storageOwnerId, sizeBytes, overrides, row.storageOwnerId !== userId)
      const stored = await markUploadStored(trx, uploadId, finished)
      if (!stored) throw new DomainError('not_found', VIDEO_UPLOAD_MESSAGES.notFound)
    })
  } catch (error) {
    await storage.remove(finished.storageKey).catch(() => {})
    await deleteUnstoredUpload(db, uploadId)
    throw error
  }
  return finished
}

/** Records a new sample video upload of an applicant (any signed-in person), or refuses its length. */
export async function startApplicationVideoUpload(
  db: DB,
  input: { userId: string; uploadId: string; sizeBytes: number; fileName: string | null | undefined },
): Promise<void> {
  if (!Number.isSafeInteger(input.sizeBytes) || input.sizeBytes < 0)
    throw new DomainError('invalid', VIDEO_UPLOAD_MESSAGES.noLength)
  if (input.sizeBytes === 0) throw new DomainError('invalid', VIDEO_UPLOAD_MESSAGES.empty)
  if (input.sizeBytes > APPLICATION_VIDEO_MAX_BYTES)
    throw new DomainError('invalid', VIDEO_UPLOAD_MESSAGES.applicationTooLarge)
  await insertUpload(db, {
    id: input.uploadId,
    userId: input.userId,
    sizeBytes: input.sizeBytes,
    fileName: uploadFileName(input.fileName),
    purpose: 'application',
  })
}

/**
 * Stores a finished sample video under the applicant's private prefix (judged as a lesson video is), or refuses it
 * (the upload and its row are then gone). It counts against no plan and is not transcoded; an application takes it
 * by its upload id (creators/applications.ts).
 */
export async function finishApplicationVideoUpload(
  deps: { db: DB; storage: FileStorage; tus: TusFiles },
  input: { userId: string; uploadId: string; sizeBytes: number },
): Promise<FinishedVideo> {
  const { db, storage, tus } = deps
  const { userId, uploadId, sizeBytes } = input
  const { type, durationSeconds } = await judgedVideo(db, tus, uploadId, sizeBytes)
  const finished: FinishedVideo = {
    storageKey: `${applicationFilePrefix(userId)}${clock.nowMs()}-${randomBytes(8).toString('hex')}.${type.ext}`,
    sizeBytes,
    durationSeconds: Math.round(durationSeconds),
    contentType: type.mime,
  }
  await tus.moveTo(storage, uploadId, sizeBytes, finished.storageKey, finished.contentType)
  if (!(await markUploadStored(db, uploadId, finished, { transcode: false }))) {
    await storage.remove(finished.storageKey).catch(() => {})
    await deleteUnstoredUpload(db, uploadId)
    throw new DomainError('not_found', VIDEO_UPLOAD_MESSAGES.notFound)
  }
  return finished
}

/** Cancels an upload in progress (the creator's tus DELETE): its bytes and its row go. */
export async function cancelVideoUpload(db: DB, tus: TusFiles, uploadId: string): Promise<void> {
  await tus.remove(uploadId)
  await deleteUnstoredUpload(db, uploadId)
}

/**
 * The studio's "delete" of a stored video no lesson uses, by its uploader or by the creator whose plan counts it (a
 * course owner, for a co-instructor's upload): its bytes no longer count, and the file goes.
 */
export async function releaseVideoUpload(db: DB, storage: FileStorage, userId: string, uploadId: string) {
  const key = await releaseUnattachedUpload(db, userId, uploadId)
  if (key === null) throw new DomainError('not_found', 'That video was not found, or a lesson still uses it')
  if (key) await storage.remove(key).catch(() => {})
}

/**
 * The daily sweep's part for tus: uploads still in progress after `olderThan` (a day by default) are abandoned,
 * their bytes and rows deleted; unfinished tus uploads without a row expire too. Returns how many went.
 */
export async function sweepAbandonedVideoUploads(
  db: DB,
  tus: TusFiles,
  olderThan = new Date(clock.nowMs() - 24 * 60 * 60 * 1000),
): Promise<number> {
  const ids = await abandonedUploadIds(db, olderThan)
  for (const id of ids) await cancelVideoUpload(db, tus, id)
  const expired = await tus.removeExpired().catch(() => 0)
  return ids.length + expired
}

/**
 * The creator's uploads (in progress and stored: their own, and those their course teams made for their courses) and
 * the storage their plan counts, for the studio.
 */
export async function videoUploadsOf(db: DB, userId: string, overrides?: CreatorLimitOverrides) {
  const [uploads, standing] = await Promise.all([listUploadsOf(db, userId), creatorStanding(db, userId, overrides)])
  return {
    uploads: uploads.map((upload) => ({
      ...uploadView(upload),
      attached: upload.lessonId !== null,
      createdAt: upload.createdAt,
      finishedAt: upload.finishedAt,
      /** Uploaded by someone on the creator's course team (counted here), not by the creator. */
      byTeam: upload.userId !== userId,
      /** Counted against another's plan: made for a course this creator co-teaches. */
      countedByOwner: upload.storageOwnerId !== userId,
    })),
    storage: {
      planName: standing.planName,
      usedBytes: standing.storageUsedBytes,
      /** null: unlimited (Enterprise) or no plan (see hasPlan). */
      limitBytes: standing.limits?.storageBytes ?? null,
      hasPlan: standing.limits !== null,
    },
  }
}

/** One of the creator's uploads: what the browser asks once its tus upload finished (its length). */
export async function videoUploadOf(db: DB, userId: string, uploadId: string) {
  const upload = await findUploadOf(db, userId, uploadId)
  if (!upload || upload.status === 'released') throw new DomainError('not_found', VIDEO_UPLOAD_MESSAGES.notFound)
  return uploadView(upload)
}

/** An upload as the studio shows it, in the list and alone. */
const uploadView = (upload: UploadRow) => ({
  uploadId: upload.id,
  status: upload.status,
  fileName: upload.fileName,
  sizeBytes: upload.sizeBytes,
  durationSeconds: upload.durationSeconds,
  transcode: transcodeOf(upload),
})

/**
 * Where its HLS renditions are (decision 0064): 'processing' (queued or running, with the percent), 'ready',
 * 'failed' or 'unavailable' (plays as uploaded), or null (uploading, or stored before renditions existed).
 */
function transcodeOf(upload: { status: string; transcodeStatus: string | null; transcodePercent: number }) {
  if (upload.status !== 'stored' || !upload.transcodeStatus) return null
  const state = upload.transcodeStatus === 'queued' ? 'processing' : upload.transcodeStatus
  return {
    state: state as 'processing' | 'ready' | 'failed' | 'unavailable',
    percent: upload.transcodeStatus === 'ready' ? 100 : upload.transcodePercent,
  }
}

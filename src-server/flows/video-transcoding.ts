// Lesson videos into HLS renditions (issue 37, decision 0064):
//   stored   finishVideoUpload marks the upload 'queued' in the transaction that stores it (an outbox: the web node
//            holds no queue, decision 0030)
//   relay    a worker's loop takes queued rows (SKIP LOCKED), enqueues one 'video.transcode' job each and records
//            its id, in one transaction: every stored upload gets a job; a row whose job is gone unsettled gets a
//            new one while still 'queued', and is marked 'failed' once 'processing' (its tries ran out)
//   job      'processing' with ffmpeg's percentage → 'ready' (renditions and poster stored beside the original), or
//            'failed' after the last try, or 'unavailable' without ffmpeg; the original plays meanwhile
import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import {
  endTranscode,
  failAbandonedTranscodes,
  finishTranscode,
  setTranscodeJob,
  setTranscodePercent,
  startTranscode,
  takeQueuedTranscodes,
} from '../creators/upload-rows.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import type { Log } from '../kernel/log.ts'
import type { JobGone } from '../kernel/relay.ts'
import { repeatEvery } from '../kernel/repeat.ts'
import type { Ffmpeg } from '../storage/ffmpeg.ts'
import { removeRenditions, transcodeStoredVideo } from '../storage/hls.ts'
import type { FileStorage } from '../storage/storage.ts'

export type EnqueueTranscode = (uploadId: string, trx: Transaction<Database>) => Promise<string>

export interface TranscodeRelayOptions {
  batch?: number
  /**
   * Also settles rows whose job is gone without settling them (jobs/queue.ts jobGone): a 'queued' row gets a new
   * job, a 'processing' one (its tries ran out unsettled) is marked 'failed'. Without it (tests with no queue) a
   * row once on the queue is left to its job.
   */
  jobGone?: JobGone
  log?: Log
}

/** Puts queued uploads on the job queue; returns how many. */
export async function relayTranscodes(
  db: DB,
  enqueue: EnqueueTranscode,
  options: TranscodeRelayOptions = {},
): Promise<number> {
  const { batch = 20, jobGone, log } = options
  return db.transaction().execute(async (trx) => {
    if (jobGone) {
      for (const uploadId of await failAbandonedTranscodes(trx, jobGone, batch)) {
        log?.warn({ uploadId }, 'video transcode left unfinished by its last try; marked failed')
      }
    }
    const ids = await takeQueuedTranscodes(trx, batch, jobGone)
    for (const id of ids) await setTranscodeJob(trx, id, await enqueue(id, trx))
    return ids.length
  })
}

/** Relays every interval until stopped; a failed pass is logged and tried again on the next. */
export function startTranscodeRelay(options: {
  db: DB
  enqueue: EnqueueTranscode
  jobGone: JobGone
  log: Log
  intervalMs?: number
}) {
  const { db, enqueue, jobGone, log } = options
  return repeatEvery(() => relayTranscodes(db, enqueue, { jobGone, log }), { ...options, what: 'transcode relay' })
}

export interface TranscodeDeps {
  db: DB
  storage: FileStorage
  log: Log
  /** null: no ffmpeg on this machine (the upload keeps playing as uploaded). */
  ffmpeg: Ffmpeg | null
}

/** Percentages are written at most this often (and always 100 at the end). */
const PERCENT_EVERY_MS = 1000

/**
 * The 'video.transcode' job: renditions and poster of one stored upload. Throws to be retried; `lastTry` marks the
 * upload 'failed' instead (it then plays as uploaded, and the creator may publish it). `jobId`, the queue's job: a
 * row the relay has since given to another job is left to it.
 */
export async function transcodeUpload(
  deps: TranscodeDeps,
  uploadId: string,
  lastTry = true,
  jobId?: string,
): Promise<string> {
  const { db, storage, log } = deps
  if (!deps.ffmpeg) {
    await endTranscode(db, uploadId, 'unavailable')
    return 'unavailable'
  }
  const key = await startTranscode(db, uploadId, jobId)
  if (!key) return 'skipped'
  const startedAt = clock.nowMs()
  let writtenAt = 0
  try {
    const done = await transcodeStoredVideo(deps.ffmpeg, storage, key, async (percent) => {
      const now = Date.now()
      if (now - writtenAt < PERCENT_EVERY_MS) return
      writtenAt = now
      await setTranscodePercent(db, uploadId, percent)
    })
    if (!(await finishTranscode(db, uploadId, done))) {
      // Released while it ran: its renditions have no owner.
      await removeRenditions(storage, done.prefix).catch(() => 0)
      return 'released'
    }
    log.info({ uploadId, heights: done.heights, ms: clock.nowMs() - startedAt }, 'video transcoded to HLS')
    return 'ready'
  } catch (error) {
    log.warn({ err: error, uploadId, lastTry }, 'video transcode failed')
    if (lastTry) {
      await endTranscode(db, uploadId, 'failed')
      return 'failed'
    }
    throw error
  }
}

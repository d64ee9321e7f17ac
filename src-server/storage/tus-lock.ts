// Who is writing a resumable (tus) upload, shared by every node through the database (decision 0113). @tus/server's
// default MemoryLocker knows only its own process: a PATCH retried on node B (the browser gave up on a slow one) ran
// beside the one node A was still writing, two writers on one upload. Here the writer holds a row with a lease it
// renews; a request for a held upload asks the holder to let go (release_requested), and the holder, seeing it at its
// next renewal, ends its request as @tus/server's requestRelease does on one node. A node that died holding a lock
// loses it when the lease runs out.
import { randomUUID } from 'node:crypto'
import type { Lock, Locker, RequestRelease } from '@tus/server'
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'

export interface TusLockTiming {
  /** How long a lock holds without renewal (a dead node's lock is free after it). */
  leaseMs: number
  /** How often the holder renews its lease and looks whether another request asks for the upload. */
  renewMs: number
  /** How often a waiting request tries again. */
  retryMs: number
  /** How long a request waits for the lock before it gives up (tus answers 500, the client retries). */
  acquireTimeoutMs: number
}

export const TUS_LOCK_TIMING: TusLockTiming = { leaseMs: 10_000, renewMs: 500, retryMs: 100, acquireTimeoutMs: 30_000 }

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })

class DatabaseLock implements Lock {
  private readonly holder = randomUUID()
  private renewal: ReturnType<typeof setInterval> | null = null

  constructor(
    private readonly db: DB,
    private readonly id: string,
    private readonly timing: TusLockTiming,
  ) {}

  /** Takes the row if nobody holds it or the holder's lease ran out; true when this request holds it now. */
  private async take(): Promise<boolean> {
    const lease = `${this.timing.leaseMs} milliseconds`
    const taken = await this.db
      .insertInto('tus_upload_locks')
      .values({
        upload_id: this.id,
        holder: this.holder,
        expires_at: sql<Date>`now() + ${lease}::interval`,
        release_requested: false,
      })
      .onConflict((oc) =>
        oc
          .column('upload_id')
          .doUpdateSet({
            holder: this.holder,
            expires_at: sql<Date>`now() + ${lease}::interval`,
            release_requested: false,
          })
          .where('tus_upload_locks.expires_at', '<', sql<Date>`now()`),
      )
      .returning('upload_id')
      .executeTakeFirst()
    return taken !== undefined
  }

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.timing.acquireTimeoutMs
    while (!(await this.take())) {
      if (signal.aborted || Date.now() >= deadline) throw (await import('@tus/server')).ERRORS.ERR_LOCK_TIMEOUT
      // Ask the holder, on whichever node, to end its request (it sees this at its next renewal).
      await this.db
        .updateTable('tus_upload_locks')
        .set({ release_requested: true })
        .where('upload_id', '=', this.id)
        .execute()
      await sleep(this.timing.retryMs, signal)
    }
    let released = false
    this.renewal = setInterval(() => {
      void this.renew().then(
        (askedToLetGo) => {
          if (askedToLetGo && !released) {
            released = true
            void requestRelease()
          }
        },
        () => {}, // a failed renewal is tried again; the lease covers several
      )
    }, this.timing.renewMs)
    this.renewal.unref()
  }

  /** Extends the lease; true when another request asked for the upload (or the lock was lost). */
  private async renew(): Promise<boolean> {
    const row = await this.db
      .updateTable('tus_upload_locks')
      .set({ expires_at: sql<Date>`now() + ${`${this.timing.leaseMs} milliseconds`}::interval` })
      .where('upload_id', '=', this.id)
      .where('holder', '=', this.holder)
      .returning('release_requested')
      .executeTakeFirst()
    return row === undefined || row.release_requested
  }

  async unlock(): Promise<void> {
    if (this.renewal) clearInterval(this.renewal)
    this.renewal = null
    await this.db
      .deleteFrom('tus_upload_locks')
      .where('upload_id', '=', this.id)
      .where('holder', '=', this.holder)
      .execute()
  }
}

/** The locker every node's tus server shares: one writer per upload across the nodes. */
export function databaseTusLocker(db: DB, timing: TusLockTiming = TUS_LOCK_TIMING): Locker {
  return { newLock: (id) => new DatabaseLock(db, id, timing) }
}

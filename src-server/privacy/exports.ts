// Data exports (issue 28, "Download my data"): privacy/ owns data_exports. A request waits as 'pending' until the
// export job builds its ZIP; the ZIP is the person's for 7 days, then the sweep removes it.
import type { DB } from '../kernel/db.ts'

export const EXPORT_TTL_MS = 7 * 24 * 60 * 60 * 1000
/** A build that failed this many times stays 'failed' (shown to the person, who may ask again). */
export const EXPORT_MAX_ATTEMPTS = 3

export interface ExportRow {
  id: string
  status: 'pending' | 'ready' | 'failed' | 'expired'
  created_at: Date
  ready_at: Date | null
  expires_at: Date | null
  size_bytes: number | null
}

const listed = ['id', 'status', 'created_at', 'ready_at', 'expires_at', 'size_bytes'] as const

/** Asks for an export; while one is pending, that one is answered (never two builds at once for a person). */
export async function requestExport(db: DB, userId: string, requestedBy: string | null): Promise<ExportRow> {
  const inserted = await db
    .insertInto('data_exports')
    .values({ user_id: userId, requested_by: requestedBy })
    .onConflict((oc) => oc.column('user_id').where('status', '=', 'pending').doNothing())
    .returning(listed)
    .executeTakeFirst()
  if (inserted) return inserted
  return db
    .selectFrom('data_exports')
    .select(listed)
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow()
}

/** The person's exports, newest first (the last ten). */
export function exportsOf(db: DB, userId: string): Promise<ExportRow[]> {
  return db
    .selectFrom('data_exports')
    .select(listed)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(10)
    .execute()
}

/** A ready, unexpired export of this person (another person's, or an expired one, is not found). */
export function readyExportOf(db: DB, userId: string, exportId: string, now: Date) {
  return db
    .selectFrom('data_exports')
    .select(['id', 'storage_key', 'created_at'])
    .where('id', '=', exportId)
    .where('user_id', '=', userId)
    .where('status', '=', 'ready')
    .where('expires_at', '>', now)
    .executeTakeFirst()
}

/** Pending exports to build, oldest first; each is claimed by bumping its attempts (a crash retries it). */
export async function claimPendingExports(db: DB, limit = 5) {
  return db
    .updateTable('data_exports')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where(
      'id',
      'in',
      db.selectFrom('data_exports').select('id').where('status', '=', 'pending').orderBy('created_at').limit(limit),
    )
    .returning(['id', 'user_id', 'attempts'])
    .execute()
}

export async function markExportReady(db: DB, exportId: string, key: string, sizeBytes: number, now: Date) {
  await db
    .updateTable('data_exports')
    .set({
      status: 'ready',
      storage_key: key,
      size_bytes: sizeBytes,
      ready_at: now,
      expires_at: new Date(now.getTime() + EXPORT_TTL_MS),
    })
    .where('id', '=', exportId)
    .where('status', '=', 'pending')
    .execute()
}

export async function markExportFailed(db: DB, exportId: string) {
  await db.updateTable('data_exports').set({ status: 'failed' }).where('id', '=', exportId).execute()
}

/**
 * Ready exports past their 7 days, with their files' keys: each is marked expired (`markExportExpired`) only once its
 * file is removed, so a removal that fails is tried again by the next run (no download reaches them meanwhile).
 */
export function exportsPastExpiry(db: DB, now: Date) {
  return db
    .selectFrom('data_exports')
    .select(['id', 'storage_key'])
    .where('status', '=', 'ready')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .execute()
}

export async function markExportExpired(db: DB, exportId: string) {
  await db.updateTable('data_exports').set({ status: 'expired' }).where('id', '=', exportId).execute()
}

/** Removes the records of exports asked for before `before` that are over (expired or failed; no file left). */
export async function purgeFinishedExports(db: DB, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('data_exports')
    .where('status', 'in', ['expired', 'failed'])
    .where('created_at', '<', before)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

// Deletes uploads no row points at any more: course images replaced or left behind by deleted courses, avatars
// whose old file could not be matched (S3_PUBLIC_URL changed since) or whose removal failed. Meant to run daily
// (a scheduled job). Only files older than `olderThan` go, so an image uploaded for a form that is not saved yet
// survives; only the upload prefixes are listed, never the rest of a bucket that may be shared. Rows that wait to be
// claimed (a post image no post used) are deleted first once as old, so their files go too.
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'
import { ALL_UPLOAD_PREFIXES } from './keys.ts'
import { type FileStorage, isSafeKey } from './storage.ts'

/** Every column that may hold the URL of an upload (or a static image: harmless, it matches no upload key). */
export const UPLOAD_URL_COLUMNS = [
  { table: 'courses', column: 'image_url' },
  { table: 'users', column: 'avatar_url' },
  { table: 'school_brands', column: 'logo_url' },
  { table: 'instructors', column: 'image_url' },
  { table: 'services', column: 'image_url' },
  { table: 'testimonials', column: 'image_url' },
  { table: 'promo_videos', column: 'poster_url' },
  { table: 'promo_videos', column: 'video_url' },
  // A storage key, not a URL: its first "tail" is the key itself.
  { table: 'service_order_files', column: 'storage_key' },
  { table: 'lessons', column: 'video_key' },
  { table: 'lesson_attachments', column: 'storage_key' },
  { table: 'lesson_post_images', column: 'storage_key' },
  { table: 'course_message_files', column: 'storage_key' },
  { table: 'data_exports', column: 'storage_key' },
  // jsonb { key, ... }: an application's attached file.
  { table: 'creator_applications', column: 'attachment' },
] as const

export const UPLOAD_SWEEP_MIN_AGE_MS = 24 * 60 * 60 * 1000

/**
 * Rows for uploads that wait for something to take them: a post image no question or answer used (post_id still null)
 * once it is older than the sweep's age. The sweep deletes those rows first, so their files go in the same run.
 */
export const UNCLAIMED_UPLOAD_ROWS = [{ table: 'lesson_post_images', claimedBy: 'post_id' }] as const

export interface SweepOptions {
  db: DB
  storage: FileStorage
  /** Files last modified before this are candidates; a day ago by default. */
  olderThan?: Date
  log?: { warn: (obj: object, msg: string) => void }
}

export interface SweepResult {
  /** Files under the upload prefixes. */
  listed: number
  /** Keys deleted. */
  deleted: string[]
  /** Unclaimed rows removed (UNCLAIMED_UPLOAD_ROWS). */
  unclaimedRows: number
  /** Staff lesson-video uploads released because no lesson uses them any more. */
  releasedStaffUploads: number
  /** Unreferenced candidates that could not be deleted (logged; the next run tries again). */
  failed: string[]
}

/**
 * The keys a URL may point at: every trailing run of its path segments. A row keeps a file when any of its URLs
 * ends with the file's key, whatever base URL it was stored under (an old CDN, the bucket, /uploads).
 */
function keysReferencedBy(url: string): string[] {
  const parsed = URL.parse(url, 'http://relative.invalid')
  if (!parsed) return []
  const segments = parsed.pathname.split('/').filter(Boolean)
  return segments.map((_segment, index) => {
    const tail = segments.slice(index).join('/')
    try {
      return decodeURIComponent(tail)
    } catch {
      return tail
    }
  })
}

async function referencedKeys(db: DB): Promise<Set<string>> {
  const keys = new Set<string>()
  for (const { table, column } of UPLOAD_URL_COLUMNS) {
    const { rows } = await sql<{ url: string | { key?: unknown } }>`
      select distinct ${sql.ref(column)} as url from ${sql.table(table)} where ${sql.ref(column)} is not null
    `.execute(db)
    for (const { url } of rows) {
      const value = typeof url === 'string' ? url : typeof url?.key === 'string' ? url.key : null
      if (value) for (const key of keysReferencedBy(value)) keys.add(key)
    }
  }
  // A creator's finished video no lesson uses yet still counts against their plan: kept until they release it. An
  // applicant's sample video is kept by its application (above), like a CV; one no application took goes.
  const { rows: stored } = await sql<{ key: string }>`
    select storage_key as key from creator_uploads
    where status = 'stored' and storage_key is not null and purpose = 'lesson'
  `.execute(db)
  for (const { key } of stored) keys.add(key)
  return keys
}

/** A stored upload's HLS renditions live under their own prefix beside it (decision 0064): kept with it. */
async function renditionPrefixes(db: DB): Promise<string[]> {
  const { rows } = await sql<{ prefix: string }>`
    select hls_prefix as prefix from creator_uploads where status = 'stored' and hls_prefix is not null
  `.execute(db)
  return rows.map((row) => row.prefix)
}

/**
 * A lesson video staff uploaded is kept (with its renditions) while a lesson uses it; once none does (replaced, or
 * never saved) and it is older than the sweep's age, its row is released, so its file and renditions go too.
 */
async function releaseUnusedStaffUploads(db: DB, olderThan: Date): Promise<number> {
  const { numAffectedRows } = await sql`
    update creator_uploads u set status = 'released'
    where u.staff_upload and u.status = 'stored' and u.created_at < ${olderThan}
      and not exists (select 1 from lessons l where l.video_key = u.storage_key)
  `.execute(db)
  return Number(numAffectedRows ?? 0)
}

export async function sweepUnreferencedUploads(options: SweepOptions): Promise<SweepResult> {
  const { db, storage, log } = options
  const olderThan = options.olderThan ?? new Date(Date.now() - UPLOAD_SWEEP_MIN_AGE_MS)
  // List first, then read the references: a row written meanwhile is seen, so its file is kept.
  const candidates: string[] = []
  let listed = 0
  for (const prefix of ALL_UPLOAD_PREFIXES) {
    for await (const file of storage.list(prefix)) {
      listed++
      if (file.lastModified < olderThan && isSafeKey(file.key)) candidates.push(file.key)
    }
  }
  const result: SweepResult = { listed, deleted: [], failed: [], unclaimedRows: 0, releasedStaffUploads: 0 }
  for (const { table, claimedBy } of UNCLAIMED_UPLOAD_ROWS) {
    const { numAffectedRows } = await sql`
      delete from ${sql.table(table)} where ${sql.ref(claimedBy)} is null and created_at < ${olderThan}
    `.execute(db)
    result.unclaimedRows += Number(numAffectedRows ?? 0)
  }
  result.releasedStaffUploads = await releaseUnusedStaffUploads(db, olderThan)
  if (!candidates.length) return result
  const referenced = await referencedKeys(db)
  const renditions = await renditionPrefixes(db)
  for (const key of candidates) {
    if (referenced.has(key) || renditions.some((prefix) => key.startsWith(prefix))) continue
    try {
      await storage.remove(key)
      result.deleted.push(key)
    } catch (error) {
      result.failed.push(key)
      log?.warn({ err: error, key }, 'unreferenced upload not deleted')
    }
  }
  return result
}

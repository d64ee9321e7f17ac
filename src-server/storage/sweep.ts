// Deletes uploads no row points at any more: course images replaced or left behind by deleted courses, avatars
// whose old file could not be matched (S3_PUBLIC_URL changed since) or whose removal failed. Meant to run daily
// (a scheduled job). Only files older than `olderThan` go, so an image uploaded for a form that is not saved yet
// survives; only the upload prefixes are listed, never the rest of a bucket that may be shared.
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'
import { ALL_UPLOAD_PREFIXES } from './keys.ts'
import { type FileStorage, isSafeKey } from './storage.ts'

/** Every column that may hold the URL of an upload (or a static image: harmless, it matches no upload key). */
export const UPLOAD_URL_COLUMNS = [
  { table: 'courses', column: 'image_url' },
  { table: 'users', column: 'avatar_url' },
  { table: 'instructors', column: 'image_url' },
  { table: 'services', column: 'image_url' },
  { table: 'testimonials', column: 'image_url' },
  { table: 'promo_videos', column: 'poster_url' },
  { table: 'promo_videos', column: 'video_url' },
  // A storage key, not a URL: its first "tail" is the key itself.
  { table: 'service_order_files', column: 'storage_key' },
  { table: 'lessons', column: 'video_key' },
  { table: 'lesson_attachments', column: 'storage_key' },
  // jsonb { key, ... }: an application's attached file.
  { table: 'creator_applications', column: 'attachment' },
] as const

export const UPLOAD_SWEEP_MIN_AGE_MS = 24 * 60 * 60 * 1000

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
  // A creator's finished video no lesson uses yet still counts against their plan: kept until they release it.
  const { rows: stored } = await sql<{ key: string }>`
    select storage_key as key from creator_uploads where status = 'stored' and storage_key is not null
  `.execute(db)
  for (const { key } of stored) keys.add(key)
  return keys
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
  const result: SweepResult = { listed, deleted: [], failed: [] }
  if (!candidates.length) return result
  const referenced = await referencedKeys(db)
  for (const key of candidates) {
    if (referenced.has(key)) continue
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

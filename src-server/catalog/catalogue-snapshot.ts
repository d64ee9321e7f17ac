// The catalogue's unsearched state (the categories and the facet groups a trigger keeps), read once per change of
// the catalogue instead of on every request (decision 0030). catalog_version moves with every statement that
// changes courses or categories (migrations 2026_11_22_1700 and 2026_11_27_0100) or what a course page shows besides
// (instructors, course_sections, lessons, course_instructors: 2026_12_05_0100) and the rest of what the home page
// shows (services, service_packages, testimonials, promo_videos: 2026_12_06_0000), so one tiny read tells whether
// what this node holds is current, whichever node or psql session made the change.
import { compiledOnce } from '../kernel/compiled-query.ts'
import type { DB } from '../kernel/db.ts'
import { turnSharedRead } from '../kernel/turn-shared-read.ts'
import type { CategoryRef, Group } from './facets.ts'

export interface CatalogueSnapshot {
  categories: CategoryRef[]
  /** Published courses per filter group (catalog_facet_counts). */
  groups: Group[]
  /** Results computed from this snapshot alone (facet summaries per filter set), dropped with it. */
  memo: Map<string, unknown>
  /** Whole serialised answers of the public catalogue reads, by call (trpc/answer-cache.ts), dropped with it. */
  answers: Map<string, Buffer>
  /**
   * Whole serialised course pages, by call (trpc/answer-cache.ts), dropped with it: catalog_version also moves with
   * the instructors, sections, lessons and course teams a page shows (migration 2026_12_05_0100, decision 0072).
   */
  coursePages: Map<string, Buffer>
}

const readVersion = compiledOnce((db: DB) => db.selectFrom('catalog_version').select('version'))
const readCategories = compiledOnce((db: DB) =>
  db.selectFrom('categories').select(['id', 'slug', 'name']).orderBy('position'),
)
// courses is an integer column: node-postgres reads the counts as numbers, used as they come.
const readGroups = compiledOnce((db: DB) =>
  db
    .selectFrom('catalog_facet_counts')
    .select(['category_id', 'price_band', 'rating_floor', 'duration_band', 'courses as n'])
    .where('courses', '>', 0),
)

const held = new WeakMap<DB, { version: string; snapshot: CatalogueSnapshot }>()

async function load(db: DB): Promise<CatalogueSnapshot> {
  const [categories, groups] = await Promise.all([readCategories(db), readGroups(db)])
  return { categories, groups, memo: new Map(), answers: new Map(), coursePages: new Map() }
}

// Requests of one event-loop turn share the version read (kernel/turn-shared-read.ts, issue 37).
const currentVersion = turnSharedRead(async (db: DB) => String((await readVersion(db))[0]?.version ?? ''))

export async function catalogueSnapshot(db: DB): Promise<CatalogueSnapshot> {
  // A transaction sees its own uncommitted changes: it reads them, and nothing is held for it (it is its own Kysely
  // instance, so a held snapshot would never be shared anyway).
  if (db.isTransaction) return load(db)
  const version = await currentVersion(db)
  const current = held.get(db)
  if (current?.version === version) return current.snapshot
  // Read after the version: a change committed in between is in the snapshot already, and its newer version makes
  // the next request read again, so what is served is never older than the version it is held under.
  const snapshot = await load(db)
  held.set(db, { version, snapshot })
  return snapshot
}

/** A value computed from the snapshot only, kept until the catalogue changes. */
export function memoised<T>(snapshot: CatalogueSnapshot, key: string, compute: () => T): T {
  if (snapshot.memo.has(key)) return snapshot.memo.get(key) as T
  const value = compute()
  snapshot.memo.set(key, value)
  return value
}

/**
 * A read that depends only on what catalog_version covers, kept with the snapshot until the catalogue
 * changes; a failed read is not kept, so the next request reads again. The rows are shared by every caller: map them,
 * never change them.
 */
export async function keptRead<T>(db: DB, key: string, read: () => Promise<T>): Promise<T> {
  if (db.isTransaction) return read() // sees its own changes; nothing is kept for it (as catalogueSnapshot)
  const snapshot = await catalogueSnapshot(db)
  const reading = memoised(snapshot, key, read)
  reading.catch(() => {
    if (snapshot.memo.get(key) === reading) snapshot.memo.delete(key)
  })
  return reading
}

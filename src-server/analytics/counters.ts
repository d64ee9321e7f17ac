// Course-page views and add-to-cart, counted by the server (no tracker, no cookie beyond the session). The hot path
// only bumps an in-memory counter; a timer (and every analytics read) writes the batch as one upsert per course and
// UTC day. A node that dies loses at most the last interval's counts: analytics, not money. A view keeps the way the
// visitor reached the page (`?from=search|catalogue`, else direct), as a sale does.
import { sql } from 'kysely'
import type { CourseChannel } from '../../src-shared/cart.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export type CourseEvent = 'views' | 'cart_adds'
export const FLUSH_INTERVAL_MS = 2_000

interface Counted {
  courseId: string
  day: string
  views: number
  viewsSearch: number
  viewsCatalogue: number
  cartAdds: number
}

interface Pending {
  counts: Map<string, Counted>
  timer: ReturnType<typeof setTimeout> | null
  flushing: Promise<void> | null
}
const pendingByDb = new WeakMap<DB, Pending>()

const dayOf = (date: Date) => date.toISOString().slice(0, 10)

/** Counts one event; never waits for the database and never throws. */
export function countCourseEvent(db: DB, courseId: string, event: CourseEvent, channel?: CourseChannel): void {
  let pending = pendingByDb.get(db)
  if (!pending) {
    pending = { counts: new Map(), timer: null, flushing: null }
    pendingByDb.set(db, pending)
  }
  const day = dayOf(clock.now())
  const key = `${courseId}\u0000${day}`
  const row = pending.counts.get(key) ?? { courseId, day, views: 0, viewsSearch: 0, viewsCatalogue: 0, cartAdds: 0 }
  if (event === 'views') {
    row.views++
    if (channel === 'search') row.viewsSearch++
    else if (channel === 'catalogue') row.viewsCatalogue++
  } else row.cartAdds++
  pending.counts.set(key, row)
  if (!pending.timer) {
    pending.timer = setTimeout(() => void flushCourseEvents(db).catch(() => {}), FLUSH_INTERVAL_MS)
    pending.timer.unref?.()
  }
}

/** Writes the counted events (one statement); the analytics reads call it first so they see their own node's. */
export async function flushCourseEvents(db: DB): Promise<void> {
  const pending = pendingByDb.get(db)
  if (!pending) return
  if (pending.flushing) await pending.flushing
  if (pending.timer) clearTimeout(pending.timer)
  pending.timer = null
  const counted = [...pending.counts.values()]
  pending.counts.clear()
  if (counted.length === 0) return
  // Only courses that exist: a made-up id in a request counts nowhere (one lookup per batch, not per view).
  const known = await db
    .selectFrom('courses')
    .select('id')
    .where('id', 'in', [...new Set(counted.map((row) => row.courseId))])
    .execute()
  const ids = new Set(known.map((row) => row.id))
  const rows = counted.filter((row) => ids.has(row.courseId))
  if (rows.length === 0) return
  pending.flushing = db
    .insertInto('course_event_counts')
    .values(
      rows.map((row) => ({
        course_id: row.courseId,
        day: row.day,
        views: row.views,
        views_search: row.viewsSearch,
        views_catalogue: row.viewsCatalogue,
        cart_adds: row.cartAdds,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['course_id', 'day']).doUpdateSet({
        views: sql`course_event_counts.views + excluded.views`,
        views_search: sql`course_event_counts.views_search + excluded.views_search`,
        views_catalogue: sql`course_event_counts.views_catalogue + excluded.views_catalogue`,
        cart_adds: sql`course_event_counts.cart_adds + excluded.cart_adds`,
      }),
    )
    .execute()
    .then(() => undefined)
    .finally(() => {
      pending.flushing = null
    })
  await pending.flushing
}

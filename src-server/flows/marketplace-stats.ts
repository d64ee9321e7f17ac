// The home page's statistics band, counted from the database (the spec's "1.2M+ active students" was static text):
// learners holding a course, instructors teaching a published course, and what creators have earned per currency.
// The home page asks on every visit and the figures move with every sale, so each node keeps them for a minute; a
// failed read is not kept, so the next visit reads again.
import { countCourseHolders } from '../access/course-holders.ts'
import { countTeachingInstructors } from '../catalog/instructors.ts'
import { creatorEarningsTotals } from '../earnings/balances.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export const STATS_KEPT_MS = 60_000

async function readStats(db: DB) {
  const [activeStudents, courseCreators, creatorEarnings] = await Promise.all([
    countCourseHolders(db),
    countTeachingInstructors(db),
    creatorEarningsTotals(db),
  ])
  return { activeStudents, courseCreators, creatorEarnings }
}
export type MarketplaceStats = Awaited<ReturnType<typeof readStats>>

const kept = new WeakMap<DB, { until: number; stats: Promise<MarketplaceStats> }>()

export function marketplaceStats(db: DB): Promise<MarketplaceStats> {
  const now = clock.nowMs()
  const held = kept.get(db)
  if (held && held.until > now) return held.stats
  const stats = readStats(db)
  kept.set(db, { until: now + STATS_KEPT_MS, stats })
  stats.catch(() => {
    if (kept.get(db)?.stats === stats) kept.delete(db)
  })
  return stats
}

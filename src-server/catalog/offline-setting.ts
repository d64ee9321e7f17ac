// A course's offline setting: whether its buyers (not only Premium members) may save its lessons for offline.
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export async function offlineForBuyersOf(db: DB, courseId: string): Promise<boolean> {
  const row = await db.selectFrom('courses').select('offline_for_buyers').where('id', '=', courseId).executeTakeFirst()
  return row?.offline_for_buyers ?? false
}

/** Sets the setting; true when that changed something. */
export async function setOfflineForBuyers(db: DB, courseId: string, allowed: boolean): Promise<boolean> {
  const result = await db
    .updateTable('courses')
    .set({ offline_for_buyers: allowed, updated_at: clock.now() })
    .where('id', '=', courseId)
    .where('offline_for_buyers', '=', !allowed)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

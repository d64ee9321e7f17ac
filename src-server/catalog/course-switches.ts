// A course's owner-set switches, a boolean column each: it is in Premium (decision 0046), its buyers may save its
// lessons for offline (decision 0058).
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export type CourseSwitch = 'included_in_premium' | 'offline_for_buyers'

/** Whether the course's buyers (not only Premium members) may save its lessons for offline. */
export async function offlineForBuyersOf(db: DB, courseId: string): Promise<boolean> {
  const row = await db.selectFrom('courses').select('offline_for_buyers').where('id', '=', courseId).executeTakeFirst()
  return row?.offline_for_buyers ?? false
}

/** Turns the switch on or off; true when that changed something. */
export async function setCourseSwitch(db: DB, courseId: string, column: CourseSwitch, on: boolean): Promise<boolean> {
  const result = await db
    .updateTable('courses')
    .set(column, on)
    .set('updated_at', clock.now())
    .where('id', '=', courseId)
    .where(column, '=', !on)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

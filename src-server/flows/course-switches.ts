// The studio's owner-only switches of a course (in Premium, decision 0046; offline for buyers, decision 0058): only
// the owner flips one, and a flip that changed something is audited with the state before and after.
import type { AuditAction } from '../../src-shared/audit-actions.ts'
import { type Actor, record } from '../audit/repository.ts'
import { type CourseSwitch, setCourseSwitch } from '../catalog/course-switches.ts'
import { assertCourseRole } from '../creators/course-team.ts'
import type { DB } from '../kernel/db.ts'

/** Each switch's name in the audit log's before and after, and its actions when turned on and off. */
const AUDITED: Record<CourseSwitch, { field: string; on: AuditAction; off: AuditAction }> = {
  included_in_premium: { field: 'includedInPremium', on: 'course.premium_included', off: 'course.premium_excluded' },
  offline_for_buyers: { field: 'offlineForBuyers', on: 'course.offline_allowed', off: 'course.offline_stopped' },
}

/** The owner turns the course's switch on or off (audited when it changed). */
export async function flipCourseSwitch(db: DB, actor: Actor, courseId: string, column: CourseSwitch, on: boolean) {
  await assertCourseRole(db, actor.id, courseId, 'owner')
  const { field, ...actions } = AUDITED[column]
  await db.transaction().execute(async (trx) => {
    if (await setCourseSwitch(trx, courseId, column, on)) {
      await record(trx, actor, on ? actions.on : actions.off, {
        type: 'course',
        id: courseId,
        before: { [field]: !on },
        after: { [field]: on },
      })
    }
  })
}

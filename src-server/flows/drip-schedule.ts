// Editing a course's drip schedule (issue 33): the course's editors in the studio (creators/course-team.ts) and staff
// editors in the course editor. Audited for staff. Drip content comes with the course owner's Pro or Enterprise plan
// (/pricing): without it a creator may still clear a schedule (open at once), never set one.
import type { z } from 'zod'
import { hasRole, type Role } from '../../src-shared/roles.ts'
import { DRIP_MESSAGES, type sectionDripInput } from '../../src-shared/schemas/drip.ts'
import { record } from '../audit/repository.ts'
import { dripScheduleView, setSectionDrip } from '../catalog/drip.ts'
import { assertCourseRole, courseOwnerId } from '../creators/course-team.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { ownerPlanIncludesPromotions } from './creator-standing.ts'

type Editor = { id: string; email: string; role: Role }

async function assertMayEdit(db: DB, user: Editor, courseId: string) {
  if (!hasRole(user.role, 'editor')) await assertCourseRole(db, user.id, courseId)
}

/** Whether drip schedules may be set on the course: always for staff, else with its owner's Pro or Enterprise plan. */
async function mayDrip(db: DB, user: Editor, courseId: string) {
  if (hasRole(user.role, 'viewer')) return true
  const ownerId = await courseOwnerId(db, courseId)
  return ownerId !== undefined && (await ownerPlanIncludesPromotions(db, ownerId))
}

/** The course's schedule, and whether the caller may set one (`planNeeded` says why not). */
export async function dripSchedule(db: DB, user: Editor, courseId: string) {
  if (!hasRole(user.role, 'viewer')) await assertCourseRole(db, user.id, courseId)
  return scheduleFor(db, user, courseId)
}

async function scheduleFor(db: DB, user: Editor, courseId: string) {
  const [sections, allowed] = await Promise.all([dripScheduleView(db, courseId), mayDrip(db, user, courseId)])
  return { sections, planNeeded: allowed ? null : DRIP_MESSAGES.planNeeded }
}

export async function setDripSchedule(db: DB, user: Editor, input: z.output<typeof sectionDripInput>) {
  await assertMayEdit(db, user, input.courseId)
  const clearing = input.afterDays === null && input.opensAt === null
  if (!clearing && !(await mayDrip(db, user, input.courseId))) {
    throw new DomainError('precondition', DRIP_MESSAGES.planNeeded)
  }
  await db.transaction().execute(async (trx) => {
    await setSectionDrip(trx, input.courseId, input.sectionId, {
      afterDays: input.afterDays,
      opensAt: input.opensAt ? new Date(input.opensAt) : null,
    })
    if (hasRole(user.role, 'editor')) {
      const after = { sectionId: input.sectionId, afterDays: input.afterDays, opensAt: input.opensAt }
      await record(trx, { id: user.id, email: user.email }, 'course.drip_set', {
        type: 'course',
        id: input.courseId,
        after,
      })
    }
  })
  return scheduleFor(db, user, input.courseId)
}

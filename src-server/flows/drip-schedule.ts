// Editing a course's drip schedule (issue 33): the course's editors in the studio (creators/course-team.ts) and staff
// editors in the course editor. Audited for staff.
import type { z } from 'zod'
import { hasRole, type Role } from '../../src-shared/roles.ts'
import type { sectionDripInput } from '../../src-shared/schemas/drip.ts'
import { record } from '../audit/repository.ts'
import { dripScheduleView, setSectionDrip } from '../catalog/drip.ts'
import { assertCourseRole } from '../creators/course-team.ts'
import type { DB } from '../kernel/db.ts'

type Editor = { id: string; email: string; role: Role }

async function assertMayEdit(db: DB, user: Editor, courseId: string) {
  if (!hasRole(user.role, 'editor')) await assertCourseRole(db, user.id, courseId)
}

export async function dripSchedule(db: DB, user: Editor, courseId: string) {
  if (!hasRole(user.role, 'viewer')) await assertCourseRole(db, user.id, courseId)
  return dripScheduleView(db, courseId)
}

export async function setDripSchedule(db: DB, user: Editor, input: z.output<typeof sectionDripInput>) {
  await assertMayEdit(db, user, input.courseId)
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
  return dripScheduleView(db, input.courseId)
}

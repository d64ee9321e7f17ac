// Whether anyone bought a course: such a course is archived rather than deleted, so order history stays whole.
// An order line (any status: a pending bank transfer is still an order) or an enrolment counts.
import { courseHasLearners } from '../access/courses.ts'
import type * as audit from '../audit/repository.ts'
import { deleteCourse } from '../catalog/course-editing.ts'
import type { DB } from '../kernel/db.ts'
import { courseHasOrderLines } from '../orders/repository.ts'

export async function courseHasPurchases(db: DB, courseId: string): Promise<boolean> {
  const [line, learner] = await Promise.all([courseHasOrderLines(db, courseId), courseHasLearners(db, courseId)])
  return line || learner
}

/** Deletes a course nobody bought; archives one somebody did. */
export async function deleteOrArchiveCourse(db: DB, actor: audit.Actor, courseId: string) {
  return deleteCourse(db, actor, courseId, await courseHasPurchases(db, courseId))
}

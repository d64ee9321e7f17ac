// Whether anyone bought a course: such a course is archived rather than deleted, so order history stays whole.
// An order line (any status: a pending bank transfer is still an order) or an enrolment counts.
import { courseHasLearners } from '../access/courses.ts'
import type { DB } from '../kernel/db.ts'
import { courseHasOrderLines } from '../orders/repository.ts'

export async function courseHasPurchases(db: DB, courseId: string): Promise<boolean> {
  const [line, learner] = await Promise.all([courseHasOrderLines(db, courseId), courseHasLearners(db, courseId)])
  return line || learner
}

// Whether anyone bought a course: such a course is archived rather than deleted, so order history stays whole.
// An order line (any status: a pending bank transfer is still an order) or an enrolment counts.
import type { DB } from '../db.ts'

export async function courseHasPurchases(db: DB, courseId: string): Promise<boolean> {
  const [line, enrolment] = await Promise.all([
    db.selectFrom('order_items').select('id').where('course_id', '=', courseId).limit(1).executeTakeFirst(),
    db.selectFrom('enrolments').select('user_id').where('course_id', '=', courseId).limit(1).executeTakeFirst(),
  ])
  return Boolean(line ?? enrolment)
}

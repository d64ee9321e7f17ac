// Reads and writes of learners' progress, course completions and certificates (learning/ is their only writer).
import type { DB } from '../db.ts'

/** Whether the learner has completed at least one lesson of the course (reviews require it). */
export async function hasCompletedAnyLesson(db: DB, userId: string, courseId: string): Promise<boolean> {
  const row = await db
    .selectFrom('lesson_progress')
    .select('lesson_id')
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('completed_at', 'is not', null)
    .limit(1)
    .executeTakeFirst()
  return Boolean(row)
}

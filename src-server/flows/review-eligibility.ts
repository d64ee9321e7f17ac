// Who may review a course: a learner with access to it (the one access function decides) who has completed at
// least one of its lessons. Verified reviews only: a buyer who never started the course cannot rate it.
import type { ReviewBlocker } from '../../src-shared/reviews.ts'
import { canOpenCourse } from '../access/courses.ts'
import type { SessionUser } from '../auth/types.ts'
import type { DB } from '../kernel/db.ts'
import { hasCompletedAnyLesson } from '../learning/repository.ts'

/** Null when the user may review the course, else why not. */
export async function reviewBlocker(
  db: DB,
  user: Pick<SessionUser, 'id' | 'role'> | null,
  courseId: string,
): Promise<ReviewBlocker | null> {
  if (!user) return 'signed_out'
  if (!(await canOpenCourse(db, user, courseId))) return 'no_access'
  if (!(await hasCompletedAnyLesson(db, user.id, courseId))) return 'no_completed_lesson'
  return null
}

// A course completes once per learner: when every lesson is complete, one course_completions row (its primary key
// makes it one), one e-mail through the outbox and, for a course with a certificate, one certificate. A learner's
// concurrent writes are serialised by a transaction-scoped advisory lock, so two transactions that each complete
// one of the last two lessons cannot both miss the other's (write skew).
import type { AccessSource } from '../../db/types.ts'
import { fullName } from '../../src-shared/names.ts'
import { type DB, lockKeyForTransaction } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { courseGrade } from './quiz-repository.ts'
import { courseProgressCounts } from './repository.ts'

export interface Learner {
  id: string
  email: string
  firstName: string
  lastName: string
}

export async function lockLearnerCourse(trx: DB, userId: string, courseId: string): Promise<void> {
  await lockKeyForTransaction(trx, `learning:${userId}:${courseId}`)
}

/** What completion needs of the course (catalog's CourseForLearning has it). */
export interface CompletedCourse {
  id: string
  title: string
  instructorName: string
  certificate: boolean
  /** A white-labelled school's name (decision 0063): the mail is signed with it instead of SkillForge. */
  brandName?: string | null
}

/**
 * In the caller's transaction, for a lesson that is complete (now or before). Idempotent: a completed course is not
 * completed again (course_completions' key). Returns the certificate id when one was issued.
 */
export async function completeCourseIfDone(
  trx: DB,
  learner: Learner,
  course: CompletedCourse,
  source: AccessSource,
  publicUrl: string,
): Promise<{ completed: boolean; certificateId: string | null }> {
  await lockLearnerCourse(trx, learner.id, course.id)
  const { total, completed } = await courseProgressCounts(trx, learner.id, course.id)
  if (total === 0 || completed < total) return { completed: false, certificateId: null }
  const inserted = await trx
    .insertInto('course_completions')
    .values({ user_id: learner.id, course_id: course.id, lesson_count: total, access_source: source })
    .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
    .returning('completed_at')
    .executeTakeFirst()
  if (!inserted) return { completed: false, certificateId: null }
  let certificateId: string | null = null
  // Quizzes (issue 33): the certificate carries the final grade; null for a course without required quizzes.
  const grade = await courseGrade(trx, learner.id, course.id)
  if (course.certificate) {
    const certificate = await trx
      .insertInto('certificates')
      .values({
        user_id: learner.id,
        course_id: course.id,
        learner_name: fullName(learner.firstName, learner.lastName) || learner.email,
        course_title: course.title,
        instructor_name: course.instructorName,
        grade_percent: grade,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    certificateId = certificate.id
  }
  await enqueueMail(trx, completionMail(learner, course, publicUrl, certificateId, grade))
  return { completed: true, certificateId }
}

function completionMail(
  learner: Learner,
  course: CompletedCourse,
  publicUrl: string,
  certificateId: string | null,
  grade: number | null,
) {
  const greeting = learner.firstName ? `Hi ${learner.firstName},` : 'Hi,'
  const certificate = certificateId
    ? `Your Certificate of Completion: ${publicUrl}/certificates/${certificateId}`
    : 'Keep learning: your courses are waiting in your account.'
  const graded = grade === null ? '' : `Your final grade: ${grade} %.\n\n`
  return {
    kind: 'course_completed',
    to: learner.email,
    subject: `You completed ${course.title}`,
    text: `${greeting}\n\nCongratulations: you completed every lesson of "${course.title}".\n\n${graded}${certificate}\n\n${course.brandName || 'SkillForge'}`,
  }
}

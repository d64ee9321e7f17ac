// A quiz lesson's definition edited by the course's editors in the studio (owner, co-instructors) and by staff
// (editor and up): settings and questions with their key and explanations, and per quiz the creator's numbers
// (attempts, pass rate, per question the share answering correctly). One transaction after the curriculum lock.
import type { z } from 'zod'
import type { QuizQuestion } from '../../db/types.ts'
import { QUIZ_MESSAGES } from '../../src-shared/quiz.ts'
import { hasRole, type Role } from '../../src-shared/roles.ts'
import type { quizRefInput, saveQuizInput } from '../../src-shared/schemas/quiz.ts'
import { isOnSale } from '../catalog/studio-courses.ts'
import { findStudioLesson, lockCurriculum } from '../catalog/studio-curriculum.ts'
import { courseRoleOf } from '../creators/course-team.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { findQuiz, quizStats, settingsOf, writeQuiz } from '../learning/quiz-repository.ts'

type QuizRef = z.output<typeof quizRefInput>
type SaveQuiz = z.output<typeof saveQuizInput>
type Editor = { id: string; role: Role }

/** Staff editors, or the course's owner and co-instructors; anyone else is told the course does not exist. */
async function assertQuizEditor(db: DB, user: Editor, courseId: string): Promise<void> {
  if (hasRole(user.role, 'editor')) return
  if ((await courseRoleOf(db, user.id, courseId)) === null) throw new DomainError('not_found', 'Course not found')
}

async function quizLessonOrThrow(db: DB, ref: QuizRef) {
  const lesson = await findStudioLesson(db, ref.courseId, ref.lessonId)
  if (lesson.kind !== 'quiz') throw new DomainError('not_found', 'Quiz not found')
  return lesson
}

/** The whole quiz with its key, for its editors, and its numbers so far. */
export async function quizForEditor(db: DB, user: Editor, ref: QuizRef) {
  await assertQuizEditor(db, user, ref.courseId)
  const lesson = await quizLessonOrThrow(db, ref)
  const quiz = await findQuiz(db, ref.courseId, ref.lessonId)
  const stats = await quizStats(db, ref.lessonId)
  const settings = settingsOf(quiz)
  return {
    courseId: ref.courseId,
    lessonId: ref.lessonId,
    title: lesson.title,
    pendingReview: lesson.pending_review,
    settings: {
      passPercent: settings.passPercent,
      maxAttempts: settings.maxAttempts,
      waitMinutes: Math.round(settings.waitSeconds / 60),
      timeLimitMinutes: settings.timeLimitSeconds === null ? null : Math.round(settings.timeLimitSeconds / 60),
      shuffleQuestions: settings.shuffleQuestions,
      shuffleOptions: settings.shuffleOptions,
      required: settings.required,
    },
    questions: quiz.questions,
    stats: {
      attempts: stats.attempts,
      learners: stats.learners,
      learnersPassed: stats.learnersPassed,
      passRatePercent: stats.attempts === 0 ? null : Math.round((stats.passedAttempts * 100) / stats.attempts),
      questions: quiz.questions.map((question) => {
        const counts = stats.questions.get(question.id) ?? { answered: 0, correct: 0 }
        return {
          id: question.id,
          prompt: question.prompt,
          answered: counts.answered,
          correctPercent: counts.answered === 0 ? null : Math.round((counts.correct * 100) / counts.answered),
        }
      }),
    },
  }
}

export async function saveQuiz(db: DB, user: Editor, input: SaveQuiz) {
  await assertQuizEditor(db, user, input.courseId)
  await db.transaction().execute(async (trx) => {
    const course = await lockCurriculum(trx, input.courseId)
    const lesson = await quizLessonOrThrow(trx, input)
    // Learners of a course on sale take its live quizzes: emptying one would skip review's "quizzes" check.
    if (input.questions.length === 0 && isOnSale(course.status) && !lesson.pending_review) {
      throw new DomainError('conflict', QUIZ_MESSAGES.liveQuizNeedsQuestions, { field: 'questions' })
    }
    const { settings } = input
    await writeQuiz(
      trx,
      input.courseId,
      input.lessonId,
      {
        passPercent: settings.passPercent,
        maxAttempts: settings.maxAttempts,
        waitSeconds: settings.waitMinutes * 60,
        timeLimitSeconds: settings.timeLimitMinutes === null ? null : settings.timeLimitMinutes * 60,
        shuffleQuestions: settings.shuffleQuestions,
        shuffleOptions: settings.shuffleOptions,
        required: settings.required,
      },
      input.questions as QuizQuestion[],
    )
  })
  return quizForEditor(db, user, input)
}

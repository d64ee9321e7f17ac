// A learner taking a quiz lesson (issue 33). The questions go out without their key; grading is here, on the
// server, in one transaction per attempt under a per-learner-and-quiz lock: start (attempts limit, the wait between
// attempts, one open attempt at a time), answers saved as they change, submit (graded once; a passed quiz completes
// its lesson and maybe the course, with the certificate's grade). A timed attempt not submitted by its limit is
// graded on the answers saved by then, as submitted at the limit, the next time the learner's quiz is read.
import type { z } from 'zod'
import type { QuizAnswer } from '../../db/types.ts'
import { QUIZ_LIMITS } from '../../src-shared/quiz.ts'
import type { Role } from '../../src-shared/roles.ts'
import type { attemptAnswersInput, quizRefInput } from '../../src-shared/schemas/quiz.ts'
import { courseOfLessonRow, findLessonRow } from '../catalog/repository-lessons.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import type { Learner } from '../learning/completion.ts'
import { attemptQuestions, gradeAttempt, layoutFor, reviewOf } from '../learning/quiz-grading.ts'
import {
  type AttemptRow,
  attemptsOf,
  expiredOpenAttempts,
  findAttempt,
  findQuiz,
  insertAttempt,
  lockLearnerQuiz,
  type QuizRow,
  recordGrade,
  saveDraftAnswers,
  settingsOf,
} from '../learning/quiz-repository.ts'
import { completeLessonRow } from '../learning/repository.ts'
import { canOpenLesson, courseAccessSource, isCourseEditor } from './lesson-access.ts'
import { afterLessonCompleted } from './save-progress.ts'
import { courseSiteUrls } from './school-domain.ts'
import { emitCourseEvent } from './webhook-events.ts'

type QuizRef = z.output<typeof quizRefInput>
type AttemptAnswers = z.output<typeof attemptAnswersInput>
type SessionLearner = Learner & { role: Role }

const notAQuiz = () => new DomainError('not_found', 'Quiz not found')

/** The lesson, its course and its quiz, for a user who may open the lesson (or edits the course). */
async function quizLesson(db: DB, user: SessionLearner, ref: QuizRef) {
  const lesson = await findLessonRow(db, ref.courseId, ref.lessonId)
  if (lesson?.kind !== 'quiz') throw notAQuiz()
  const course = courseOfLessonRow(lesson)
  const quiz = await findQuiz(db, ref.courseId, ref.lessonId)
  const learner = await canOpenLesson(db, user, course, { id: lesson.id, isPreview: lesson.is_preview })
  const editor = !learner && (await isCourseEditor(db, user, course.id))
  if (!learner && !editor) throw new DomainError('forbidden', 'You do not have access to this lesson')
  return { lesson, course, quiz, editorPreview: editor }
}

/** Grades an open attempt whose time ran out, as submitted at its limit, on the answers saved by then. */
async function closeExpired(trx: DB, quiz: QuizRow, attempt: AttemptRow, now: Date): Promise<boolean> {
  if (attempt.submitted_at || !attempt.deadline_at) return false
  if (now.getTime() <= attempt.deadline_at.getTime() + QUIZ_LIMITS.graceSeconds * 1000) return false
  const grade = gradeAttempt(quiz.questions, attempt.layout, attempt.answers, quiz.pass_percent)
  return recordGrade(trx, attempt.id, { ...grade, answers: attempt.answers, submittedAt: attempt.deadline_at })
}

function summaryOf(attempt: AttemptRow) {
  return {
    id: attempt.id,
    submittedAt: attempt.submitted_at?.toISOString() ?? null,
    scorePercent: attempt.score_percent ?? 0,
    correct: attempt.correct_count ?? 0,
    total: attempt.question_count,
    passed: attempt.passed === true,
  }
}

function resultOf(quiz: QuizRow, attempt: AttemptRow) {
  return {
    ...summaryOf(attempt),
    passPercent: quiz.pass_percent,
    questions: reviewOf(quiz.questions, attempt.layout, attempt.answers, attempt.results ?? {}),
  }
}

/** Whether another attempt may start now, and if not, why and from when. */
function nextAttempt(quiz: QuizRow, submitted: AttemptRow[], now: Date) {
  const attemptsLeft = quiz.max_attempts === null ? null : Math.max(0, quiz.max_attempts - submitted.length)
  if (attemptsLeft === 0) return { canStart: false, attemptsLeft, availableAt: null }
  const last = submitted.at(-1)?.submitted_at
  const availableAt = last ? new Date(last.getTime() + quiz.wait_seconds * 1000) : null
  const waiting = availableAt !== null && availableAt.getTime() > now.getTime()
  return { canStart: !waiting, attemptsLeft, availableAt: waiting ? availableAt.toISOString() : null }
}

function openAttemptView(quiz: QuizRow, attempt: AttemptRow) {
  return {
    id: attempt.id,
    startedAt: attempt.started_at.toISOString(),
    deadlineAt: attempt.deadline_at?.toISOString() ?? null,
    questions: attemptQuestions(quiz.questions, attempt.layout),
    answers: attempt.answers,
  }
}

/** The quiz as the learner sees it: settings, their attempts, the best, the open attempt, the last result. */
export async function learnerQuiz(db: DB, user: SessionLearner, ref: QuizRef, publicUrl: string) {
  const { quiz, course, editorPreview } = await quizLesson(db, user, ref)
  // A preview quiz opens for anyone signed in; only those who hold the course take it.
  const enrolled = !editorPreview && (await courseAccessSource(db, user, course)) !== null
  const now = clock.now()
  let attempts = await attemptsOf(db, user.id, ref.lessonId)
  const open = attempts.find((attempt) => !attempt.submitted_at)
  if (open?.deadline_at && now.getTime() > open.deadline_at.getTime() + QUIZ_LIMITS.graceSeconds * 1000) {
    await db.transaction().execute(async (trx) => {
      await lockLearnerQuiz(trx, user.id, ref.lessonId)
      const fresh = await findAttempt(trx, user.id, ref.lessonId, open.id)
      if (fresh && (await closeExpired(trx, quiz, fresh, now))) await afterGrade(trx, user, ref, fresh.id, publicUrl)
    })
    attempts = await attemptsOf(db, user.id, ref.lessonId)
  }
  const submitted = attempts.filter((attempt) => attempt.submitted_at)
  const current = attempts.find((attempt) => !attempt.submitted_at)
  const best = [...submitted].sort((a, b) => (b.score_percent ?? 0) - (a.score_percent ?? 0))[0]
  const last = submitted.at(-1)
  const settings = settingsOf(quiz)
  return {
    lessonId: ref.lessonId,
    courseId: ref.courseId,
    editorPreview,
    settings: {
      passPercent: settings.passPercent,
      maxAttempts: settings.maxAttempts,
      waitSeconds: settings.waitSeconds,
      timeLimitSeconds: settings.timeLimitSeconds,
      required: settings.required,
      questionCount: quiz.questions.length,
    },
    attempts: submitted.map(summaryOf),
    best: best ? summaryOf(best) : null,
    passed: submitted.some((attempt) => attempt.passed),
    open: current ? openAttemptView(quiz, current) : null,
    lastResult: last ? resultOf(quiz, last) : null,
    enrolled,
    ...(!enrolled
      ? { canStart: false, attemptsLeft: settings.maxAttempts, availableAt: null }
      : nextAttempt(quiz, submitted, now)),
  }
}

/** Starts an attempt, or answers the open one (a second tab resumes it). Refused past the limit or during the wait. */
export async function startQuizAttempt(db: DB, user: SessionLearner, ref: QuizRef, publicUrl: string) {
  const { quiz, course, editorPreview } = await quizLesson(db, user, ref)
  if (editorPreview || !(await courseAccessSource(db, user, course))) {
    throw new DomainError('forbidden', 'Enrol in the course to take this quiz')
  }
  if (quiz.questions.length === 0) throw new DomainError('precondition', 'This quiz has no questions yet')
  return db.transaction().execute(async (trx) => {
    await lockLearnerQuiz(trx, user.id, ref.lessonId)
    const now = clock.now()
    const attempts = await attemptsOf(trx, user.id, ref.lessonId)
    const open = attempts.find((attempt) => !attempt.submitted_at)
    if (open) {
      if (!(await closeExpired(trx, quiz, open, now))) return openAttemptView(quiz, open)
      await afterGrade(trx, user, ref, open.id, publicUrl)
    }
    const submitted = (await attemptsOf(trx, user.id, ref.lessonId)).filter((attempt) => attempt.submitted_at)
    const next = nextAttempt(quiz, submitted, now)
    if (next.attemptsLeft === 0) throw new DomainError('conflict', 'You have used every attempt at this quiz')
    if (!next.canStart) {
      throw new DomainError('conflict', `You can try again from ${next.availableAt ?? 'later'}`)
    }
    const attempt = await insertAttempt(trx, {
      userId: user.id,
      courseId: ref.courseId,
      lessonId: ref.lessonId,
      layout: layoutFor(quiz.questions, quiz.shuffle_questions, quiz.shuffle_options),
      deadline: quiz.time_limit_seconds === null ? null : new Date(now.getTime() + quiz.time_limit_seconds * 1000),
    })
    return openAttemptView(quiz, attempt)
  })
}

/** Saves the answers so far of an open attempt within its time (what the limit grades). */
export async function saveQuizAnswers(db: DB, user: SessionLearner, input: AttemptAnswers) {
  await quizLesson(db, user, input)
  const saved = await saveDraftAnswers(db, user.id, input.attemptId, input.answers as Record<string, QuizAnswer>)
  return { saved }
}

/**
 * Submits an attempt and answers its result. Idempotent: a submitted attempt answers its grade again. After the
 * time limit (and a few seconds' grace) the answers sent are ignored: the attempt is graded on those saved by the
 * limit, as submitted at it.
 */
export async function submitQuizAttempt(db: DB, user: SessionLearner, input: AttemptAnswers, publicUrl: string) {
  const { quiz } = await quizLesson(db, user, input)
  const outcome = await db.transaction().execute(async (trx) => {
    await lockLearnerQuiz(trx, user.id, input.lessonId)
    const attempt = await findAttempt(trx, user.id, input.lessonId, input.attemptId)
    if (!attempt) throw new DomainError('not_found', 'Attempt not found')
    if (attempt.submitted_at) return { courseCompleted: false, certificateId: null }
    const now = clock.now()
    if (await closeExpired(trx, quiz, attempt, now)) return afterGrade(trx, user, input, attempt.id, publicUrl)
    const answers = input.answers as Record<string, QuizAnswer>
    const grade = gradeAttempt(quiz.questions, attempt.layout, answers, quiz.pass_percent)
    await recordGrade(trx, attempt.id, { ...grade, answers, submittedAt: now })
    return afterGrade(trx, user, input, attempt.id, publicUrl)
  })
  const graded = await findAttempt(db, user.id, input.lessonId, input.attemptId)
  if (!graded) throw new DomainError('not_found', 'Attempt not found')
  return { ...resultOf(quiz, graded), ...outcome }
}

/** A passed attempt completes the quiz lesson, and the course when it was the last step (in the same transaction). */
async function afterGrade(trx: DB, user: SessionLearner, ref: QuizRef, attemptId: string, publicUrl: string) {
  const attempt = await findAttempt(trx, user.id, ref.lessonId, attemptId)
  if (!attempt?.passed || !attempt.submitted_at) return { courseCompleted: false, certificateId: null }
  await emitCourseEvent(trx, ref.courseId, 'quiz.passed', {
    learnerId: user.id,
    lessonId: ref.lessonId,
    attemptId: attempt.id,
    scorePercent: attempt.score_percent ?? null,
  })
  const lesson = await findLessonRow(trx, ref.courseId, ref.lessonId)
  if (!lesson) return { courseCompleted: false, certificateId: null }
  await completeLessonRow(trx, user.id, ref.courseId, ref.lessonId, attempt.submitted_at)
  return afterLessonCompleted(trx, user, courseOfLessonRow(lesson), publicUrl)
}

/**
 * The scheduled sweep (jobs/registry.ts 'quizzes.close-expired'): every timed attempt left open past its limit is
 * graded as submitted at the limit, on the answers saved by then, and a pass completes the lesson (and maybe the
 * course). Idempotent: an attempt is graded once (recordGrade's guard), under the learner's quiz lock, so a run
 * twice, or a learner's own read at the same time, changes nothing more.
 */
export async function closeExpiredQuizAttempts(db: DB, publicUrl: string): Promise<number> {
  const now = clock.now()
  const due = await expiredOpenAttempts(db, new Date(now.getTime() - QUIZ_LIMITS.graceSeconds * 1000))
  // The completion mail's certificate link is on the course's school's own domain when it has a verified one.
  const siteUrlOf = courseSiteUrls(db, publicUrl)
  let closed = 0
  for (const row of due) {
    const user = await db
      .selectFrom('users')
      .select(['id', 'email', 'first_name', 'last_name', 'role'])
      .where('id', '=', row.user_id)
      .executeTakeFirst()
    if (!user) continue
    const learner = {
      id: user.id,
      email: user.email,
      firstName: user.first_name,
      lastName: user.last_name,
      role: user.role,
    }
    const ref = { courseId: row.course_id, lessonId: row.lesson_id }
    const quiz = await findQuiz(db, ref.courseId, ref.lessonId)
    const siteUrl = await siteUrlOf(ref.courseId)
    await db.transaction().execute(async (trx) => {
      await lockLearnerQuiz(trx, learner.id, ref.lessonId)
      const attempt = await findAttempt(trx, learner.id, ref.lessonId, row.id)
      if (!attempt || !(await closeExpired(trx, quiz, attempt, now))) return
      closed += 1
      await afterGrade(trx, learner, ref, attempt.id, siteUrl)
    })
  }
  return closed
}

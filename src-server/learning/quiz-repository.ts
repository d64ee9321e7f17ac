// Quizzes' rows: a quiz lesson's definition (settings and questions with the key) and learners' attempts.
// learning/ is their only writer. Times come from the clock.
import { sql } from 'kysely'
import type { QuizAnswer, QuizLayout, QuizQuestion } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, lockKeyForTransaction } from '../kernel/db.ts'

export interface QuizSettings {
  passPercent: number
  maxAttempts: number | null
  waitSeconds: number
  timeLimitSeconds: number | null
  shuffleQuestions: boolean
  shuffleOptions: boolean
  required: boolean
}

const QUIZ_COLUMNS = [
  'lesson_id',
  'course_id',
  'pass_percent',
  'max_attempts',
  'wait_seconds',
  'time_limit_seconds',
  'shuffle_questions',
  'shuffle_options',
  'required',
  'questions',
] as const

function quizRow(db: DB, courseId: string, lessonId: string) {
  return db
    .selectFrom('quizzes')
    .select(QUIZ_COLUMNS)
    .where('lesson_id', '=', lessonId)
    .where('course_id', '=', courseId)
    .executeTakeFirst()
}
export type QuizRow = NonNullable<Awaited<ReturnType<typeof quizRow>>>

/** A quiz lesson's definition; one never saved is an empty, required quiz with an 80 % pass mark. */
export async function findQuiz(db: DB, courseId: string, lessonId: string): Promise<QuizRow> {
  return (
    (await quizRow(db, courseId, lessonId)) ?? {
      lesson_id: lessonId,
      course_id: courseId,
      pass_percent: 80,
      max_attempts: null,
      wait_seconds: 0,
      time_limit_seconds: null,
      shuffle_questions: false,
      shuffle_options: false,
      required: true,
      questions: [],
    }
  )
}

export function settingsOf(row: QuizRow): QuizSettings {
  return {
    passPercent: row.pass_percent,
    maxAttempts: row.max_attempts,
    waitSeconds: row.wait_seconds,
    timeLimitSeconds: row.time_limit_seconds,
    shuffleQuestions: row.shuffle_questions,
    shuffleOptions: row.shuffle_options,
    required: row.required,
  }
}

export async function writeQuiz(
  trx: DB,
  courseId: string,
  lessonId: string,
  settings: QuizSettings,
  questions: QuizQuestion[],
): Promise<void> {
  const values = {
    pass_percent: settings.passPercent,
    max_attempts: settings.maxAttempts,
    wait_seconds: settings.waitSeconds,
    time_limit_seconds: settings.timeLimitSeconds,
    shuffle_questions: settings.shuffleQuestions,
    shuffle_options: settings.shuffleOptions,
    required: settings.required,
    questions: JSON.stringify(questions),
    updated_at: clock.now(),
  }
  await trx
    .insertInto('quizzes')
    .values({ lesson_id: lessonId, course_id: courseId, ...values })
    .onConflict((oc) => oc.column('lesson_id').doUpdateSet(values))
    .execute()
}

/** When each of a course's quizzes was last saved (a course review's version includes them). */
export function quizEdits(db: DB, courseId: string) {
  return db
    .selectFrom('quizzes')
    .select(['lesson_id', 'updated_at'])
    .where('course_id', '=', courseId)
    .orderBy('lesson_id')
    .execute()
}

/** Serialises one learner's attempts at one quiz for the transaction (start, submit, the deadline's close). */
export async function lockLearnerQuiz(trx: DB, userId: string, lessonId: string): Promise<void> {
  await lockKeyForTransaction(trx, `quiz:${userId}:${lessonId}`)
}

const ATTEMPT_COLUMNS = [
  'id',
  'started_at',
  'deadline_at',
  'submitted_at',
  'layout',
  'answers',
  'results',
  'question_count',
  'correct_count',
  'score_percent',
  'passed',
] as const

export function attemptsOf(db: DB, userId: string, lessonId: string) {
  return db
    .selectFrom('quiz_attempts')
    .select(ATTEMPT_COLUMNS)
    .where('user_id', '=', userId)
    .where('lesson_id', '=', lessonId)
    .orderBy('started_at')
    .execute()
}
export type AttemptRow = Awaited<ReturnType<typeof attemptsOf>>[number]

export function findAttempt(db: DB, userId: string, lessonId: string, attemptId: string) {
  return db
    .selectFrom('quiz_attempts')
    .select(ATTEMPT_COLUMNS)
    .where('id', '=', attemptId)
    .where('user_id', '=', userId)
    .where('lesson_id', '=', lessonId)
    .executeTakeFirst()
}

export function insertAttempt(
  trx: DB,
  values: { userId: string; courseId: string; lessonId: string; layout: QuizLayout; deadline: Date | null },
) {
  return trx
    .insertInto('quiz_attempts')
    .values({
      user_id: values.userId,
      course_id: values.courseId,
      lesson_id: values.lessonId,
      started_at: clock.now(),
      deadline_at: values.deadline,
      layout: JSON.stringify(values.layout),
      question_count: values.layout.questions.length,
    })
    .returning(ATTEMPT_COLUMNS)
    .executeTakeFirstOrThrow()
}

/** Open attempts whose time limit (and grace) has passed: the sweep grades them at their limit. */
export async function expiredOpenAttempts(db: DB, before: Date, limit = 500) {
  return db
    .selectFrom('quiz_attempts')
    .select(['id', 'user_id', 'course_id', 'lesson_id'])
    .where('submitted_at', 'is', null)
    .where('deadline_at', '<', before)
    .orderBy('deadline_at')
    .limit(limit)
    .execute()
}

/** Saves an open attempt's answers so far (what a timed attempt is graded on at its limit). */
export async function saveDraftAnswers(
  db: DB,
  userId: string,
  attemptId: string,
  answers: Record<string, QuizAnswer>,
): Promise<boolean> {
  const now = clock.now()
  const result = await db
    .updateTable('quiz_attempts')
    .set({ answers: JSON.stringify(answers) })
    .where('id', '=', attemptId)
    .where('user_id', '=', userId)
    .where('submitted_at', 'is', null)
    .where((eb) => eb.or([eb('deadline_at', 'is', null), eb('deadline_at', '>=', now)]))
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Records the grade of an open attempt; false when it was already submitted (a second submit changes nothing). */
export async function recordGrade(
  trx: DB,
  attemptId: string,
  grade: {
    answers: Record<string, QuizAnswer>
    results: Record<string, boolean>
    correct: number
    total: number
    percent: number
    passed: boolean
    submittedAt: Date
  },
): Promise<boolean> {
  const result = await trx
    .updateTable('quiz_attempts')
    .set({
      answers: JSON.stringify(grade.answers),
      results: JSON.stringify(grade.results),
      question_count: grade.total,
      correct_count: grade.correct,
      score_percent: grade.percent,
      passed: grade.passed,
      submitted_at: grade.submittedAt,
    })
    .where('id', '=', attemptId)
    .where('submitted_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/**
 * The course's final grade for the learner: the mean of the best score of each required quiz of the course's live
 * lessons, rounded; null when the course has no required quiz.
 */
export async function courseGrade(db: DB, userId: string, courseId: string): Promise<number | null> {
  const row = await db
    .selectFrom('quizzes as q')
    .innerJoin('lessons as l', 'l.id', 'q.lesson_id')
    .select(
      sql<string | null>`avg(coalesce((select max(a.score_percent) from quiz_attempts a
        where a.lesson_id = q.lesson_id and a.user_id = ${userId} and a.submitted_at is not null), 0))`.as('grade'),
    )
    .where('q.course_id', '=', courseId)
    .where('q.required', '=', true)
    .where('l.kind', '=', 'quiz')
    .where('l.pending_review', '=', false)
    .executeTakeFirst()
  return row?.grade == null ? null : Math.round(Number(row.grade))
}

/** Per quiz for its creator: submitted attempts, learners, passes, and per question the share answering correctly. */
export async function quizStats(db: DB, lessonId: string) {
  const [totals, perQuestion] = await Promise.all([
    db
      .selectFrom('quiz_attempts')
      .select((eb) => [
        eb.fn.countAll<string>().as('attempts'),
        sql<string>`count(*) filter (where passed)`.as('passed'),
        sql<string>`count(distinct user_id)`.as('learners'),
        sql<string>`count(distinct user_id) filter (where passed)`.as('learners_passed'),
      ])
      .where('lesson_id', '=', lessonId)
      .where('submitted_at', 'is not', null)
      .executeTakeFirstOrThrow(),
    sql<{ question_id: string; answered: string; correct: string }>`
      select r.key as question_id, count(*) as answered, count(*) filter (where r.value = 'true'::jsonb) as correct
      from quiz_attempts a, jsonb_each(a.results) r
      where a.lesson_id = ${lessonId} and a.submitted_at is not null
      group by r.key`.execute(db),
  ])
  return {
    attempts: Number(totals.attempts),
    passedAttempts: Number(totals.passed),
    learners: Number(totals.learners),
    learnersPassed: Number(totals.learners_passed),
    questions: new Map(
      perQuestion.rows.map((row) => [
        row.question_id,
        { answered: Number(row.answered), correct: Number(row.correct) },
      ]),
    ),
  }
}

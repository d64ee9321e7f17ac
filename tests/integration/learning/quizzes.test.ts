// Quizzes (issue 33): the definition edited by the course's team and staff only; the learner's view never carries
// the key before submission; grading on the server (choice, multiple, true/false, short answer ignoring case and
// spaces); the attempts limit, the wait between attempts and the time limit (graded at the limit on the answers
// saved by then); the best attempt counts; the quiz lesson completes only by a pass; the course completes when every
// lesson is complete and every required quiz passed, and its certificate carries the final grade; the creator's
// numbers per quiz. Concurrency (one open attempt, graded once) on PostgreSQL.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { insertCourse } from '../../../db/seed/factories.ts'
import { writeCurriculum } from '../../../src-server/catalog/curriculum-editing.ts'
import { closeExpiredQuizAttempts } from '../../../src-server/flows/quiz-taking.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { QUIZ_MESSAGES } from '../../../src-shared/quiz.ts'
import type { SaveQuizInput } from '../../../src-shared/schemas/quiz.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { buyerOfCourse, lessonsOf } from '../../support/learning.ts'
import { SAMPLE_QUESTIONS } from '../../support/quizzes.ts'
import { raceIt } from '../../support/race.ts'
import { studioCourseOf } from '../../support/studio.ts'

let database: DatabaseHandle
const db = () => database.db
let categoryId: string
let count = 0

beforeAll(async () => {
  database = await createTestDatabase()
  categoryId = (await db().selectFrom('categories').select('id').limit(1).executeTakeFirstOrThrow()).id
})
afterAll(() => database.close())
afterEach(() => resetClock())

const QUESTIONS = SAMPLE_QUESTIONS
const ALL_RIGHT = { q1: ['b'], q2: ['b', 'a'], q3: true, q4: '  aL bany ', q5: false }
const THREE_RIGHT = { q1: ['b'], q2: ['a'], q3: true, q4: 'New York', q5: false }

const settings = (overrides: Partial<SaveQuizInput['settings']> = {}): SaveQuizInput['settings'] => ({
  passPercent: 80,
  maxAttempts: null,
  waitMinutes: 0,
  timeLimitMinutes: null,
  shuffleQuestions: false,
  shuffleOptions: false,
  required: true,
  ...overrides,
})

/** A published course with certificate: one text lesson and one quiz lesson, the quiz saved by a staff editor. */
async function quizCourse(overrides: Partial<SaveQuizInput['settings']> = {}) {
  count += 1
  const id = `quiz-course-${count}`
  await insertCourse(db(), {
    id,
    title: `Quiz course ${count}`,
    category_id: categoryId,
    certificate: true,
    status: 'published',
  })
  await writeCurriculum(db(), id, [
    {
      title: 'Section',
      lessons: [
        { title: 'Read me', durationSeconds: 60, isPreview: false },
        { title: 'Check yourself', durationSeconds: 300, isPreview: false, kind: 'quiz' },
      ],
    },
  ])
  const [text, quiz] = await lessonsOf(db(), id)
  if (!text || !quiz) throw new Error('lessons missing')
  const staff = await createUser(db(), { role: 'editor' })
  await (await callerAs(db(), staff)).quizzes.save({
    courseId: id,
    lessonId: quiz.id,
    settings: settings(overrides),
    questions: QUESTIONS,
  })
  const learner = (await buyerOfCourse(db(), id)).user
  return { id, text, quiz, ref: { courseId: id, lessonId: quiz.id }, learner, caller: await callerAs(db(), learner) }
}

const KEY_WORDS = ['correct', 'accepted', 'Albany', 'explanation', 'Jupiter is the largest', '"answer"']

describe('the learner’s view', () => {
  it('never carries the answer key, the accepted answers or the explanations before submission', async () => {
    const { caller, ref } = await quizCourse({ shuffleOptions: true, shuffleQuestions: true })
    const before = JSON.stringify(await caller.quizzes.forLearner(ref))
    const started = await caller.quizzes.start(ref)
    const lesson = JSON.stringify(await caller.learning.lesson(ref))
    for (const text of [before, JSON.stringify(started), lesson]) {
      for (const word of KEY_WORDS) expect(text).not.toContain(word)
    }
    expect(started.questions.map((q) => q.id).sort()).toEqual(['q1', 'q2', 'q3', 'q4', 'q5'])
    expect(
      started.questions
        .find((q) => q.id === 'q1')
        ?.options?.map((o) => o.text)
        .sort(),
    ).toEqual(['Jupiter', 'Mars', 'Venus'])
  })

  it('refuses a visitor and a signed-in non-holder; editors of the quiz only', async () => {
    const { ref, caller } = await quizCourse()
    const stranger = await callerAs(db(), await createUser(db()))
    await expect(stranger.quizzes.forLearner(ref)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(stranger.quizzes.start(ref)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(caller.quizzes.editor(ref)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(caller.quizzes.save({ ...ref, settings: settings(), questions: QUESTIONS })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect((await callerAs(db(), null)).quizzes.forLearner(ref)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })
})

describe('grading and completion', () => {
  it('fails at 60 %, shows which answers were wrong with the explanation, retries, passes, completes with a grade', async () => {
    const { caller, ref, id, text, learner } = await quizCourse()
    // The quiz lesson cannot be marked complete by a click.
    await expect(caller.learning.setCompleted({ ...ref, completed: true })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    })
    await caller.learning.setCompleted({ courseId: id, lessonId: text.id, completed: true })

    const first = await caller.quizzes.start(ref)
    const failed = await caller.quizzes.submit({ ...ref, attemptId: first.id, answers: THREE_RIGHT })
    expect(failed).toMatchObject({ scorePercent: 60, correct: 3, total: 5, passed: false, passPercent: 80 })
    expect(failed.courseCompleted).toBe(false)
    const wrong = failed.questions.filter((q) => !q.correct)
    expect(wrong.map((q) => [q.id, q.yourAnswer, q.explanation])).toEqual([
      ['q2', 'Two', 'Two and three are prime; four is not.'],
      ['q4', 'New York', 'Albany, not New York City.'],
    ])
    // Submitting again changes nothing (idempotent).
    const again = await caller.quizzes.submit({ ...ref, attemptId: first.id, answers: ALL_RIGHT })
    expect(again).toMatchObject({ scorePercent: 60, passed: false })
    expect((await caller.learning.course({ courseId: id })).completion).toBeNull()

    const second = await caller.quizzes.start(ref)
    expect(second.id).not.toBe(first.id)
    const passed = await caller.quizzes.submit({ ...ref, attemptId: second.id, answers: ALL_RIGHT })
    expect(passed).toMatchObject({ scorePercent: 100, passed: true, courseCompleted: true })
    expect(passed.certificateId).toEqual(expect.any(String))

    // A later, worse attempt does not lower the best.
    const third = await caller.quizzes.start(ref)
    await caller.quizzes.submit({ ...ref, attemptId: third.id, answers: {} })
    const view = await caller.quizzes.forLearner(ref)
    expect(view.best?.scorePercent).toBe(100)
    expect(view.passed).toBe(true)
    expect(view.attempts.map((a) => a.scorePercent)).toEqual([60, 100, 0])

    const certificate = await (await callerAs(db(), null)).learning.certificate({ id: passed.certificateId ?? '' })
    expect(certificate).toMatchObject({ gradePercent: 100, status: 'verified' })
    const mail = await db()
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', learner.email)
      .where('kind', '=', 'course_completed')
      .executeTakeFirstOrThrow()
    expect(mail.text_body).toContain('Your final grade: 100 %.')
  })

  it('grades the course on the best score of each required quiz; an optional quiz neither blocks nor counts', async () => {
    const { caller, ref, id, text } = await quizCourse({ required: false })
    await caller.learning.setCompleted({ courseId: id, lessonId: text.id, completed: true })
    const done = await caller.learning.course({ courseId: id })
    expect(done.completion?.certificateId).toEqual(expect.any(String))
    // The player's "N of M" and My courses count as the completion does: the optional quiz is in neither.
    expect(done.progress).toEqual({ completed: 1, total: 1, percent: 100 })
    const mine = (await caller.learning.myCourses()).find((course) => course.id === id)
    expect(mine?.progress).toEqual({ completed: 1, total: 1, percent: 100 })
    const certificate = await caller.learning.certificate({ id: done.completion?.certificateId ?? '' })
    expect(certificate.gradePercent).toBeNull()
    // The optional quiz can still be taken.
    const attempt = await caller.quizzes.start(ref)
    expect((await caller.quizzes.submit({ ...ref, attemptId: attempt.id, answers: ALL_RIGHT })).passed).toBe(true)
    // Passed, it has its check, and the counts stay those of the completion.
    const after = await caller.learning.course({ courseId: id })
    expect(
      after.sections.flatMap((section) => section.lessons).find((lesson) => lesson.id === ref.lessonId),
    ).toMatchObject({
      completed: true,
    })
    expect(after.progress).toEqual({ completed: 1, total: 1, percent: 100 })
  })

  it('is exact: 80 % passes an 80 % mark, and a question deleted since the start is not counted', async () => {
    const { caller, ref } = await quizCourse()
    const attempt = await caller.quizzes.start(ref)
    const four = await caller.quizzes.submit({ ...ref, attemptId: attempt.id, answers: { ...ALL_RIGHT, q5: true } })
    expect(four).toMatchObject({ scorePercent: 80, passed: true })
  })
})

describe('attempts', () => {
  it('keeps to the attempts limit and the wait between attempts (the clock moves)', async () => {
    const { caller, ref } = await quizCourse({ maxAttempts: 2, waitMinutes: 60 })
    const first = await caller.quizzes.start(ref)
    // Starting twice answers the same open attempt.
    expect((await caller.quizzes.start(ref)).id).toBe(first.id)
    await caller.quizzes.submit({ ...ref, attemptId: first.id, answers: {} })
    await expect(caller.quizzes.start(ref)).rejects.toMatchObject({ code: 'CONFLICT' })
    const waiting = await caller.quizzes.forLearner(ref)
    expect(waiting).toMatchObject({ canStart: false, attemptsLeft: 1 })
    expect(waiting.availableAt).toEqual(expect.any(String))
    await advanceClock(60 * 60)
    const second = await caller.quizzes.start(ref)
    await caller.quizzes.submit({ ...ref, attemptId: second.id, answers: {} })
    await advanceClock(2 * 60 * 60)
    await expect(caller.quizzes.start(ref)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'You have used every attempt at this quiz',
    })
    expect(await caller.quizzes.forLearner(ref)).toMatchObject({ canStart: false, attemptsLeft: 0 })
  })

  it('grades a timed attempt at its limit on the answers saved by then, ignoring answers sent late', async () => {
    const { caller, ref } = await quizCourse({ timeLimitMinutes: 10 })
    const attempt = await caller.quizzes.start(ref)
    expect(attempt.deadlineAt).toEqual(expect.any(String))
    await caller.quizzes.saveAnswers({ ...ref, attemptId: attempt.id, answers: { q1: ['b'], q3: true } })
    await advanceClock(11 * 60)
    // Too late to save; the submit's answers are ignored: graded on the two saved, as submitted at the limit.
    expect(await caller.quizzes.saveAnswers({ ...ref, attemptId: attempt.id, answers: ALL_RIGHT })).toEqual({
      saved: false,
    })
    const result = await caller.quizzes.submit({ ...ref, attemptId: attempt.id, answers: ALL_RIGHT })
    expect(result).toMatchObject({ correct: 2, total: 5, scorePercent: 40, passed: false })
    expect(result.submittedAt).toBe(attempt.deadlineAt)
  })

  it('closes an expired attempt when the learner next reads the quiz', async () => {
    const { caller, ref } = await quizCourse({ timeLimitMinutes: 1 })
    const attempt = await caller.quizzes.start(ref)
    await caller.quizzes.saveAnswers({ ...ref, attemptId: attempt.id, answers: ALL_RIGHT })
    await advanceClock(5 * 60)
    const view = await caller.quizzes.forLearner(ref)
    expect(view.open).toBeNull()
    expect(view.lastResult).toMatchObject({ scorePercent: 100, passed: true, submittedAt: attempt.deadlineAt })
  })
})

describe('the time limit sweep', () => {
  it('grades an abandoned timed attempt at its limit, completes the course on a pass, and does it once', async () => {
    const { caller, ref, id, text, learner } = await quizCourse({ timeLimitMinutes: 2 })
    await caller.learning.setCompleted({ courseId: id, lessonId: text.id, completed: true })
    const attempt = await caller.quizzes.start(ref)
    await caller.quizzes.saveAnswers({ ...ref, attemptId: attempt.id, answers: ALL_RIGHT })
    expect(await closeExpiredQuizAttempts(db(), 'https://shop.test')).toBe(0)
    await advanceClock(3 * 60)
    expect(await closeExpiredQuizAttempts(db(), 'https://shop.test')).toBe(1)
    expect(await closeExpiredQuizAttempts(db(), 'https://shop.test')).toBe(0)
    const view = await caller.quizzes.forLearner(ref)
    expect(view.lastResult).toMatchObject({ passed: true, scorePercent: 100, submittedAt: attempt.deadlineAt })
    const mails = await db()
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', learner.email)
      .where('kind', '=', 'course_completed')
      .execute()
    expect(mails).toHaveLength(1)
    expect(mails[0]?.text_body).toContain('https://shop.test/certificates/')
  })
})

describe('editing and numbers', () => {
  it('lets the course’s creator edit the quiz and shows attempts, pass rate and per question share correct', async () => {
    const { ref, caller } = await quizCourse()
    const a = await caller.quizzes.start(ref)
    await caller.quizzes.submit({ ...ref, attemptId: a.id, answers: THREE_RIGHT })
    const b = await caller.quizzes.start(ref)
    await caller.quizzes.submit({ ...ref, attemptId: b.id, answers: ALL_RIGHT })
    const staff = await callerAs(db(), await createUser(db(), { role: 'editor' }))
    const editor = await staff.quizzes.editor(ref)
    expect(editor.stats).toMatchObject({ attempts: 2, learners: 1, learnersPassed: 1, passRatePercent: 50 })
    expect(editor.stats.questions.map((q) => [q.id, q.correctPercent])).toEqual([
      ['q1', 100],
      ['q2', 50],
      ['q3', 100],
      ['q4', 50],
      ['q5', 100],
    ])
    expect(editor.questions[0]).toMatchObject({ options: [{ correct: false }, { correct: true }, { correct: false }] })
  })

  it('a creator makes a lesson a quiz in the studio and writes it; another creator and a buyer cannot', async () => {
    const creator = await createUser(db())
    const courseId = await studioCourseOf(db(), creator.id)
    const [lesson] = await lessonsOf(db(), courseId)
    const ref = { courseId, lessonId: lesson?.id ?? '' }
    const studio = await callerAs(db(), creator)
    // Not a quiz yet: its editor is not found.
    await expect(studio.quizzes.editor(ref)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const saved = await studio.studio.updateLesson({
      ...ref,
      title: 'Quick check',
      isPreview: false,
      content: { type: 'quiz', bodyMarkdown: 'Three minutes.', duration: '3:00' },
    })
    expect(saved).toMatchObject({ type: 'quiz', durationSeconds: 180 })
    expect((await studio.studio.course({ courseId })).curriculum[0]?.lessons[0]?.type).toBe('quiz')
    expect((await studio.quizzes.editor(ref)).settings).toMatchObject({ passPercent: 80, required: true })
    const written = await studio.quizzes.save({ ...ref, settings: settings({ passPercent: 70 }), questions: QUESTIONS })
    expect(written.questions).toHaveLength(5)
    expect(written.settings.passPercent).toBe(70)
    const other = await callerAs(db(), await createUser(db()))
    await expect(other.quizzes.editor(ref)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    // A staff viewer reads the catalogue but does not edit quizzes.
    const viewer = await callerAs(db(), await createUser(db(), { role: 'viewer' }))
    await expect(viewer.quizzes.editor(ref)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('keeps a question in a live quiz of a course on sale; a draft course’s quiz may be emptied', async () => {
    const { ref } = await quizCourse()
    const staff = await callerAs(db(), await createUser(db(), { role: 'editor' }))
    await expect(staff.quizzes.save({ ...ref, settings: settings(), questions: [] })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: QUIZ_MESSAGES.liveQuizNeedsQuestions,
    })
    expect((await staff.quizzes.editor(ref)).questions).toHaveLength(QUESTIONS.length)
    // One question left is a quiz learners can take.
    const one = await staff.quizzes.save({ ...ref, settings: settings(), questions: QUESTIONS.slice(0, 1) })
    expect(one.questions).toHaveLength(1)

    const creator = await createUser(db())
    const courseId = await studioCourseOf(db(), creator.id)
    const [lesson] = await lessonsOf(db(), courseId)
    const draftRef = { courseId, lessonId: lesson?.id ?? '' }
    const studio = await callerAs(db(), creator)
    await studio.studio.updateLesson({
      ...draftRef,
      title: 'Quick check',
      isPreview: false,
      content: { type: 'quiz', bodyMarkdown: 'Three minutes.', duration: '3:00' },
    })
    await studio.quizzes.save({ ...draftRef, settings: settings(), questions: QUESTIONS })
    const emptied = await studio.quizzes.save({ ...draftRef, settings: settings(), questions: [] })
    expect(emptied.questions).toEqual([])
  })

  it('refuses a single-choice question without exactly one correct option', async () => {
    const { ref } = await quizCourse()
    const staff = await callerAs(db(), await createUser(db(), { role: 'editor' }))
    const bad = {
      ...QUESTIONS[0],
      options: [
        { id: 'a', text: 'A', correct: true },
        { id: 'b', text: 'B', correct: true },
      ],
    }
    await expect(
      staff.quizzes.save({ ...ref, settings: settings(), questions: [bad as (typeof QUESTIONS)[number]] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })
})

describe('concurrency (PostgreSQL)', () => {
  // Without the per-learner lock (lockLearnerQuiz) the unique open-attempt index turns the losers' inserts into
  // errors; without the guarded update (submitted_at is null) two submits would both complete the course.
  raceIt('ten starts give one open attempt; ten submits grade it once and complete the course once', async () => {
    const { caller, ref, id, text, learner } = await quizCourse()
    await caller.learning.setCompleted({ courseId: id, lessonId: text.id, completed: true })
    const starts = await Promise.all(Array.from({ length: 10 }, () => caller.quizzes.start(ref)))
    expect(new Set(starts.map((s) => s.id)).size).toBe(1)
    const attemptId = starts[0]?.id ?? ''
    const results = await Promise.all(
      Array.from({ length: 10 }, () => caller.quizzes.submit({ ...ref, attemptId, answers: ALL_RIGHT })),
    )
    expect(results.filter((r) => r.courseCompleted)).toHaveLength(1)
    const mails = await db()
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', learner.email)
      .where('kind', '=', 'course_completed')
      .execute()
    expect(mails).toHaveLength(1)
  })
})

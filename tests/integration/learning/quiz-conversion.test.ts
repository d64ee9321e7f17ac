// A lesson made a quiz after learners completed it (the course editor keeps lesson ids across edits, so their
// progress rows stay): its old "complete" was a click, not a pass, so it must not stand for the quiz. The course
// completes, and its certificate is issued, only once the learner passes the quiz.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertCourse } from '../../../db/seed/factories.ts'
import { writeCurriculum } from '../../../src-server/catalog/curriculum-editing.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { buyerOfCourse, lessonsOf } from '../../support/learning.ts'
import { SAMPLE_QUESTIONS } from '../../support/quizzes.ts'

let database: TestDatabase
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

const ALL_RIGHT = { q1: ['b'], q2: ['b', 'a'], q3: true, q4: 'Albany', q5: false }
const outline = (checkKind: 'article' | 'quiz') => [
  {
    title: 'Section',
    lessons: [
      { title: 'First', durationSeconds: 60, isPreview: false },
      { title: 'Check', durationSeconds: 60, isPreview: false, kind: checkKind },
      { title: 'Last', durationSeconds: 60, isPreview: false },
    ],
  },
]

describe('a lesson completed as an article, then made a required quiz', () => {
  it('does not count as passed: the course completes, with its certificate, and the player and My courses count it, only after the quiz is passed', async () => {
    const category = await db().selectFrom('categories').select('id').limit(1).executeTakeFirstOrThrow()
    const courseId = 'converted-quiz-course'
    await insertCourse(db(), {
      id: courseId,
      title: 'Converted quiz course',
      category_id: category.id,
      certificate: true,
      status: 'published',
    })
    await writeCurriculum(db(), courseId, outline('article'))
    const [first, check, last] = await lessonsOf(db(), courseId)
    if (!first || !check || !last) throw new Error('lessons missing')
    const { user } = await buyerOfCourse(db(), courseId)
    const learner = await callerAs(db(), user)
    await learner.learning.setCompleted({ courseId, lessonId: check.id, completed: true })

    // The staff editor makes the lesson a required quiz (same id: the learner's progress row stays).
    await writeCurriculum(db(), courseId, outline('quiz'))
    const staff = await createUser(db(), { role: 'editor' })
    await (await callerAs(db(), staff)).quizzes.save({
      courseId,
      lessonId: check.id,
      settings: {
        passPercent: 80,
        maxAttempts: null,
        waitMinutes: 0,
        timeLimitMinutes: null,
        shuffleQuestions: false,
        shuffleOptions: false,
        required: true,
      },
      questions: SAMPLE_QUESTIONS,
    })

    await learner.learning.setCompleted({ courseId, lessonId: first.id, completed: true })
    const lastDone = await learner.learning.setCompleted({ courseId, lessonId: last.id, completed: true })
    expect(lastDone).toMatchObject({ courseCompleted: false, certificateId: null })
    expect(await db().selectFrom('certificates').select('id').where('user_id', '=', user.id).execute()).toEqual([])
    // The player agrees: the quiz has no check and is not counted in "N of M" until it is passed.
    const checkOf = (player: Awaited<ReturnType<typeof learner.learning.course>>) =>
      player.sections.flatMap((section) => section.lessons).find((lesson) => lesson.id === check.id)?.completed
    const before = await learner.learning.course({ courseId })
    expect(before.progress).toEqual({ completed: 2, total: 3, percent: 67 })
    expect(checkOf(before)).toBe(false)
    // So does My courses (the same count, on the server).
    const mine = async () => (await learner.learning.myCourses()).find((course) => course.id === courseId)?.progress
    expect(await mine()).toEqual({ completed: 2, total: 3, percent: 67 })

    const ref = { courseId, lessonId: check.id }
    const attempt = await learner.quizzes.start(ref)
    const passed = await learner.quizzes.submit({ ...ref, attemptId: attempt.id, answers: ALL_RIGHT })
    expect(passed).toMatchObject({ passed: true, courseCompleted: true })
    const after = await learner.learning.course({ courseId })
    expect(after.progress).toEqual({ completed: 3, total: 3, percent: 100 })
    expect(await mine()).toEqual({ completed: 3, total: 3, percent: 100 })
    expect(checkOf(after)).toBe(true)
    const certificate = await learner.learning.certificate({ id: passed.certificateId ?? '' })
    expect(certificate.gradePercent).toBe(100)
  })
})

// Over HTTP (issue 33): no response a learner can get before submitting carries a quiz's answer key, its accepted
// short answers or its explanations: the quiz, a started (shuffled) attempt, saving answers, the lesson, the player's
// course and the public course page. The submit's answer is the first to carry explanations (so the check can see
// them when they are there).
import { describe, expect, it } from 'vitest'
import { insertCourse } from '../../../db/seed/factories.ts'
import { writeCurriculum } from '../../../src-server/catalog/curriculum-editing.ts'
import { createSessionToken } from '../../support/factories.ts'
import { trpcPost } from '../../support/http.ts'
import { buyerOfCourse } from '../../support/learning.ts'
import { addQuizLesson, SAMPLE_QUESTIONS } from '../../support/quizzes.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()

/** Every piece of the key: correct flags, accepted answers, true/false answers, explanations. */
const KEY = [
  '"correct"',
  '"accepted"',
  '"answer"',
  'Albany',
  ...SAMPLE_QUESTIONS.map((question) => question.explanation),
]

describe('quiz answer key over HTTP', () => {
  it('never leaves the server before an attempt is submitted', async () => {
    const category = await site.db.selectFrom('categories').select('id').limit(1).executeTakeFirstOrThrow()
    const courseId = 'http-quiz-course'
    await insertCourse(site.db, {
      id: courseId,
      title: 'HTTP quiz course',
      category_id: category.id,
      status: 'published',
    })
    await writeCurriculum(site.db, courseId, [
      { title: 'Start', lessons: [{ title: 'Intro', durationSeconds: 60, isPreview: true }] },
    ])
    const lessonId = await addQuizLesson(site.db, courseId)
    await site.db.updateTable('quizzes').set({ shuffle_options: true, shuffle_questions: true }).execute()
    const { user } = await buyerOfCourse(site.db, courseId)
    const cookie = `session=${(await createSessionToken(site.db, user.id)).token}`
    const headers = { cookie, origin: site.baseUrl }
    const ref = { courseId, lessonId }
    const get = async (procedure: string, input: unknown) => {
      const response = await fetch(
        `${site.baseUrl}/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`,
        { headers },
      )
      expect(response.status, procedure).toBe(200)
      return response.text()
    }
    const post = async (procedure: string, input: unknown) => {
      const response = await trpcPost(site.baseUrl, procedure, input, headers)
      expect(response.status, procedure).toBe(200)
      return response.text()
    }

    const before = [
      await get('quizzes.forLearner', ref),
      await get('learning.lesson', ref),
      await get('learning.course', { courseId }),
      await get('catalog.course', { id: courseId }),
    ]
    const started = await post('quizzes.start', ref)
    const attemptId = (JSON.parse(started) as { result: { data: { id: string } } }).result.data.id
    const saved = await post('quizzes.saveAnswers', { ...ref, attemptId, answers: { q1: ['a'] } })
    const during = await get('quizzes.forLearner', ref)
    for (const body of [...before, started, saved, during]) {
      for (const piece of KEY) expect(body).not.toContain(piece)
    }
    expect(started).toContain('Which planet is largest?')

    const submitted = await post('quizzes.submit', { ...ref, attemptId, answers: { q1: ['a'] } })
    expect(submitted).toContain('Jupiter is the largest planet.')
    // Even after, the correct options themselves are not named; the explanation says what is right.
    expect(submitted).not.toContain('"correct":true,"text"')
  })
})

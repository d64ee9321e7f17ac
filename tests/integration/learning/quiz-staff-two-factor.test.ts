// The staff 2FA rule (STAFF_2FA=required) on quiz editing (issues 33 and 28): an admin or owner without a second
// factor cannot read any course's quiz key or rewrite its questions through their staff role, and is told to set one
// up, as in the staff area; with one they can; an editor needs none; the course's creator still edits their quiz; and
// with STAFF_2FA=optional the admin goes through.
import { describe, expect, it } from 'vitest'
import { type AppConfig, defaultAppConfig } from '../../../src-server/kernel/config.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { AUTH_MESSAGES } from '../../../src-shared/auth.ts'
import type { SaveQuizInput } from '../../../src-shared/schemas/quiz.ts'
import { createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { addQuizLesson, SAMPLE_QUESTIONS } from '../../support/quizzes.ts'
import { studioCourseOf } from '../../support/studio.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()
const required: AppConfig = { ...defaultAppConfig, staffTwoFactor: 'required' }
const PRECONDITION = { code: 'PRECONDITION_FAILED', message: AUTH_MESSAGES.staffTwoFactorRequired }

async function callerFor(user: TestUser, twoFactorEnabled: boolean, config = required) {
  const { session } = await createSessionToken(site.db, user.id)
  return createCaller(createContextInner({ db: site.db, user: { ...user, twoFactorEnabled }, session, config }))
}

const settings = (passPercent: number): SaveQuizInput['settings'] => ({
  passPercent,
  maxAttempts: null,
  waitMinutes: 0,
  timeLimitMinutes: null,
  shuffleQuestions: false,
  shuffleOptions: false,
  required: true,
})

/** A creator's course with a quiz lesson; the creator's account and the quiz's reference. */
async function creatorQuiz() {
  const creator = await createUser(site.db)
  const courseId = await studioCourseOf(site.db, creator.id)
  const lessonId = await addQuizLesson(site.db, courseId)
  return { creator, ref: { courseId, lessonId } }
}

const passPercentOf = async (lessonId: string) =>
  (
    await site.db
      .selectFrom('quizzes')
      .select('pass_percent')
      .where('lesson_id', '=', lessonId)
      .executeTakeFirstOrThrow()
  ).pass_percent

describe('STAFF_2FA=required on quiz editing', () => {
  it('refuses an admin or owner without a second factor, and changes nothing', async () => {
    const { ref } = await creatorQuiz()
    const before = await passPercentOf(ref.lessonId)
    for (const role of ['admin', 'super_admin'] as const) {
      const staff = await callerFor(await createUser(site.db, { role }), false)
      await expect(staff.quizzes.editor(ref)).rejects.toMatchObject(PRECONDITION)
      await expect(
        staff.quizzes.save({ ...ref, settings: settings(10), questions: SAMPLE_QUESTIONS }),
      ).rejects.toMatchObject(PRECONDITION)
      // Nor can they take (and so read the graded key of) a quiz in a course they do not hold.
      await expect(staff.quizzes.forLearner(ref)).rejects.toMatchObject(PRECONDITION)
      await expect(staff.quizzes.start(ref)).rejects.toMatchObject(PRECONDITION)
    }
    expect(await passPercentOf(ref.lessonId)).toBe(before)
  })

  it('lets the same admin through with a second factor, and an editor without one', async () => {
    const { ref } = await creatorQuiz()
    const admin = await callerFor(await createUser(site.db, { role: 'admin' }), true)
    expect((await admin.quizzes.editor(ref)).questions).toHaveLength(SAMPLE_QUESTIONS.length)
    await admin.quizzes.save({ ...ref, settings: settings(60), questions: SAMPLE_QUESTIONS })
    expect(await passPercentOf(ref.lessonId)).toBe(60)
    const editor = await callerFor(await createUser(site.db, { role: 'editor' }), false)
    await editor.quizzes.save({ ...ref, settings: settings(65), questions: SAMPLE_QUESTIONS })
    expect(await passPercentOf(ref.lessonId)).toBe(65)
  })

  it('leaves creators their own quizzes, and an admin without one their own course; optional lets them through', async () => {
    const { creator, ref } = await creatorQuiz()
    const studio = await callerFor(creator, false)
    expect((await studio.quizzes.editor(ref)).settings.passPercent).toBe(80)
    await studio.quizzes.save({ ...ref, settings: settings(70), questions: SAMPLE_QUESTIONS })
    expect(await passPercentOf(ref.lessonId)).toBe(70)
    // Another creator is told the course does not exist (not a 2FA matter).
    const stranger = await callerFor(await createUser(site.db), false)
    await expect(stranger.quizzes.editor(ref)).rejects.toMatchObject({ code: 'NOT_FOUND' })

    // An admin who is a co-instructor of the course edits it as its instructor, second factor or not.
    const admin = await createUser(site.db, { role: 'admin' })
    await site.db
      .insertInto('course_instructors')
      .values({ course_id: ref.courseId, user_id: admin.id, role: 'co' })
      .execute()
    await (await callerFor(admin, false)).quizzes.save({ ...ref, settings: settings(75), questions: SAMPLE_QUESTIONS })
    expect(await passPercentOf(ref.lessonId)).toBe(75)

    const other = await createUser(site.db, { role: 'admin' })
    const optional = await callerFor(other, false, { ...defaultAppConfig, staffTwoFactor: 'optional' })
    expect((await optional.quizzes.editor(ref)).settings.passPercent).toBe(75)
  })
})

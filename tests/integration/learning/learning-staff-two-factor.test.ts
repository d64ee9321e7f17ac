// The staff 2FA rule (STAFF_2FA=required) on the drip and lesson-question procedures (issue 33): an admin or owner
// without a second factor cannot use their staff reach (set any course's drip schedule, moderate any course's
// questions, read its reports) and is told to set one up, as in the staff area; with one they can; an editor needs
// none; the course's own instructor is not affected; and with STAFF_2FA=optional the admin goes through. The same
// holds for reading any course's paid lessons through the staff role: the player's lesson and the media route.
import { beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { type AppConfig, defaultAppConfig } from '../../../src-server/kernel/config.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { AUTH_MESSAGES } from '../../../src-shared/auth.ts'
import { createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse } from '../../support/learning.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile({ env: { STAFF_2FA: 'required' } })
const COURSE = 'modern-react-typescript'
const required: AppConfig = { ...defaultAppConfig, staffTwoFactor: 'required' }
let questionId: string
let sectionId: string

async function callerFor(user: TestUser, twoFactorEnabled: boolean, config = required) {
  const { session } = await createSessionToken(site.db, user.id)
  return createCaller(createContextInner({ db: site.db, user: { ...user, twoFactorEnabled }, session, config }))
}

beforeAll(async () => {
  const lesson = await site.db
    .selectFrom('lessons')
    .select(['id', 'section_id'])
    .where('course_id', '=', COURSE)
    .where('is_preview', '=', false)
    .executeTakeFirstOrThrow()
  sectionId = lesson.section_id
  const { user } = await buyerOfCourse(site.db, COURSE)
  const learner = await callerFor(user, false)
  questionId = (await learner.questions.ask({ courseId: COURSE, lessonId: lesson.id, title: 'A question', body: 'x' }))
    .id
})

const PRECONDITION = { code: 'PRECONDITION_FAILED', message: AUTH_MESSAGES.staffTwoFactorRequired }

describe('STAFF_2FA=required on drip and question moderation', () => {
  it('refuses an admin or owner without a second factor, and tells them to set one up', async () => {
    for (const role of ['admin', 'super_admin'] as const) {
      const staff = await callerFor(await createUser(site.db, { role }), false)
      await expect(
        staff.drip.setSection({ courseId: COURSE, sectionId, afterDays: 3, opensAt: null }),
      ).rejects.toMatchObject(PRECONDITION)
      await expect(staff.drip.schedule({ courseId: COURSE })).rejects.toMatchObject(PRECONDITION)
      await expect(staff.questions.hide({ questionId, hidden: true })).rejects.toMatchObject(PRECONDITION)
      await expect(staff.questions.markAnswered({ questionId, answered: true })).rejects.toMatchObject(PRECONDITION)
      await expect(staff.questions.reports({ courseId: COURSE })).rejects.toMatchObject(PRECONDITION)
      await expect(staff.questions.list({ courseId: COURSE })).rejects.toMatchObject(PRECONDITION)
      await expect(staff.questions.reportQueue({})).rejects.toMatchObject(PRECONDITION)
    }
    const row = await site.db.selectFrom('lesson_questions').select('hidden_at').where('id', '=', questionId).execute()
    expect(row[0]?.hidden_at).toBeNull()
  })

  it('lets the same admin through with a second factor, and an editor without one', async () => {
    const admin = await callerFor(await createUser(site.db, { role: 'admin' }), true)
    expect(await admin.questions.hide({ questionId, hidden: true })).toEqual({ hidden: true })
    expect(Array.isArray((await admin.drip.schedule({ courseId: COURSE })).sections)).toBe(true)
    const editor = await callerFor(await createUser(site.db, { role: 'editor' }), false)
    expect(await editor.questions.hide({ questionId, hidden: false })).toEqual({ hidden: false })
    await editor.drip.setSection({ courseId: COURSE, sectionId, afterDays: null, opensAt: null })
    expect(Array.isArray(await editor.questions.reports({ courseId: COURSE }))).toBe(true)
  })

  it('leaves an admin without one their own course and enrolments; STAFF_2FA=optional lets them through', async () => {
    const admin = await createUser(site.db, { role: 'admin' })
    await site.db
      .insertInto('course_instructors')
      .values({ course_id: COURSE, user_id: admin.id, role: 'co' })
      .execute()
    const asInstructor = await callerFor(admin, false)
    expect(await asInstructor.questions.hide({ questionId, hidden: false })).toEqual({ hidden: false })
    const other = await createUser(site.db, { role: 'admin' })
    const optional = await callerFor(other, false, { ...defaultAppConfig, staffTwoFactor: 'optional' })
    expect(await optional.questions.hide({ questionId, hidden: false })).toEqual({ hidden: false })
  })
})

describe('STAFF_2FA=required on reading paid lessons', () => {
  it('an admin or owner without a second factor opens no lesson of a course they do not hold, nor its video', async () => {
    const lesson = await site.db
      .selectFrom('lessons')
      .select('id')
      .where('course_id', '=', COURSE)
      .where('is_preview', '=', false)
      .where('video_key', 'is not', null)
      .executeTakeFirstOrThrow()
    const ref = { courseId: COURSE, lessonId: lesson.id }
    for (const role of ['admin', 'super_admin'] as const) {
      const user = await createUser(site.db, { role })
      const unfactored = await callerFor(user, false)
      expect(await unfactored.learning.lesson(ref)).toMatchObject({ locked: true, content: null })
      // Nor does the staff role save progress in it, complete it, or keep it offline.
      const progress = { ...ref, positionSeconds: 5, ranges: [[0, 5]] as [number, number][], sentAt: Date.now() }
      const noAccess = { code: 'FORBIDDEN', message: 'You do not have access to this lesson' }
      await expect(unfactored.learning.saveProgress(progress)).rejects.toMatchObject(noAccess)
      await expect(unfactored.learning.setCompleted({ ...ref, completed: true })).rejects.toMatchObject(noAccess)
      expect(await unfactored.learning.offlinePasses({ courseIds: [COURSE] })).toMatchObject([{ allowed: false }])
      const { token } = await createSessionToken(site.db, user.id)
      const media = await fetch(`${site.baseUrl}/api/learn/media/${lesson.id}`, {
        headers: { cookie: `${SESSION_COOKIE}=${token}` },
      })
      expect(media.status).toBe(403)
    }
    const admin = await callerFor(await createUser(site.db, { role: 'admin' }), true)
    expect(await admin.learning.lesson(ref)).toMatchObject({ locked: false })
    const editor = await callerFor(await createUser(site.db, { role: 'editor' }), false)
    expect(await editor.learning.lesson(ref)).toMatchObject({ locked: false })
  })
})

// The lesson access rule (flows/lesson-access.ts) for every kind of user, through the procedures the app uses, and no
// lesson body or media address reaching anyone the rule refuses, whichever procedure they call.
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canOpenLesson } from '../../../src-server/flows/lesson-access.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse, lessonsOf, premiumMember } from '../../support/learning.ts'

const INCLUDED = 'modern-react-typescript'
const EXCLUDED = 'sql-for-analysts'
const SECRET = 'SECRET-LESSON-BODY-7f3a'
const SECRET_KEY = 'private/lessons/secret-7f3a.webm'

let database: DatabaseHandle
const db = () => database.db
let buyer: TestUser
let premium: TestUser
let stranger: TestUser
let staff: TestUser

beforeAll(async () => {
  database = await createTestDatabase()
  await db().updateTable('courses').set({ included_in_premium: false }).where('id', '=', EXCLUDED).execute()
  // Every locked lesson carries a marker in its body and its video key, to look for in every answer.
  await db()
    .updateTable('lessons')
    .set({ body_markdown: `# Locked\n\n${SECRET}` })
    .where('course_id', 'in', [INCLUDED, EXCLUDED])
    .where('is_preview', '=', false)
    .execute()
  await db()
    .updateTable('lessons')
    .set({ video_key: SECRET_KEY, kind: 'video' })
    .where('course_id', '=', EXCLUDED)
    .where('is_preview', '=', false)
    .execute()
  buyer = (await buyerOfCourse(db(), INCLUDED)).user
  premium = (await premiumMember(db())).user
  stranger = await createUser(db())
  staff = await createUser(db(), { role: 'viewer' })
})
afterAll(() => database.close())

type Who = 'visitor' | 'stranger' | 'buyer' | 'premium' | 'staff'
const userOf = (who: Who) => ({ visitor: null, stranger, buyer, premium, staff })[who]

// Which users open a non-preview lesson of each course (everyone opens preview lessons of a published course).
const OPENS: Record<Who, Record<string, boolean>> = {
  visitor: { [INCLUDED]: false, [EXCLUDED]: false },
  stranger: { [INCLUDED]: false, [EXCLUDED]: false },
  buyer: { [INCLUDED]: true, [EXCLUDED]: false },
  premium: { [INCLUDED]: true, [EXCLUDED]: false },
  staff: { [INCLUDED]: true, [EXCLUDED]: true },
}

describe('learning.lesson and learning.course follow the rule', () => {
  for (const who of Object.keys(OPENS) as Who[]) {
    for (const courseId of [INCLUDED, EXCLUDED]) {
      const opens = OPENS[who][courseId]
      it(`${who}: ${opens ? 'opens' : 'sees only titles of'} the lessons of ${courseId} (previews open)`, async () => {
        const caller = await callerAs(db(), userOf(who))
        const lessons = await lessonsOf(db(), courseId)
        expect(lessons.some((lesson) => lesson.is_preview)).toBe(true)
        const player = await caller.learning.course({ courseId })
        const locks = new Map(player.sections.flatMap((s) => s.lessons).map((lesson) => [lesson.id, lesson.locked]))
        expect(player.hasAccess).toBe(opens)
        for (const lesson of lessons) {
          const allowed = opens || lesson.is_preview
          expect(locks.get(lesson.id)).toBe(!allowed)
          const answer = await caller.learning.lesson({ courseId, lessonId: lesson.id })
          expect(answer.title).toBe(lesson.title)
          expect(answer.locked).toBe(!allowed)
          if (allowed) expect(answer.content?.html).toContain('<')
          else expect(answer.content).toBeNull()
          const canOpen = await canOpenLesson(
            db(),
            userOf(who),
            { id: courseId, status: 'published', includedInPremium: courseId === INCLUDED },
            { id: lesson.id, isPreview: lesson.is_preview },
          )
          expect(canOpen).toBe(allowed)
        }
      })
    }
  }

  it('a draft course opens only for staff', async () => {
    await db().updateTable('courses').set({ status: 'draft' }).where('id', '=', EXCLUDED).execute()
    try {
      const lesson = (await lessonsOf(db(), EXCLUDED)).find((l) => l.is_preview)
      if (!lesson) throw new Error('no preview lesson')
      for (const who of ['visitor', 'stranger', 'premium'] as const) {
        const caller = await callerAs(db(), userOf(who))
        await expect(caller.learning.lesson({ courseId: EXCLUDED, lessonId: lesson.id })).rejects.toMatchObject({
          code: 'NOT_FOUND',
        })
      }
      const answer = await (await callerAs(db(), staff)).learning.lesson({ courseId: EXCLUDED, lessonId: lesson.id })
      expect(answer.locked).toBe(false)
    } finally {
      await db().updateTable('courses').set({ status: 'published' }).where('id', '=', EXCLUDED).execute()
    }
  })

  it('a course in review or sent back for changes is not found in the player either, its outline included', async () => {
    const lesson = (await lessonsOf(db(), EXCLUDED)).find((l) => !l.is_preview)
    if (!lesson) throw new Error('no locked lesson')
    for (const status of ['in_review', 'changes_requested'] as const) {
      await db().updateTable('courses').set({ status }).where('id', '=', EXCLUDED).execute()
      try {
        for (const who of ['visitor', 'stranger', 'premium'] as const) {
          const caller = await callerAs(db(), userOf(who))
          await expect(caller.learning.course({ courseId: EXCLUDED })).rejects.toMatchObject({ code: 'NOT_FOUND' })
          await expect(caller.learning.lesson({ courseId: EXCLUDED, lessonId: lesson.id })).rejects.toMatchObject({
            code: 'NOT_FOUND',
          })
        }
        const answer = await (await callerAs(db(), staff)).learning.course({ courseId: EXCLUDED })
        expect(answer.hasAccess).toBe(true)
      } finally {
        await db().updateTable('courses').set({ status: 'published' }).where('id', '=', EXCLUDED).execute()
      }
    }
  })

  it('a lesson id of another course is not found', async () => {
    const [lesson] = await lessonsOf(db(), EXCLUDED)
    const caller = await callerAs(db(), staff)
    await expect(caller.learning.lesson({ courseId: INCLUDED, lessonId: lesson?.id ?? '' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
  })
})

describe('a course taken off sale', () => {
  const NO_ACCESS = { code: 'FORBIDDEN', message: 'You do not have access to this lesson' }
  /** Runs `check` with the course in `status`, published again afterwards. */
  async function whileCourseIs(courseId: string, status: 'draft' | 'archived', check: () => Promise<void>) {
    await db().updateTable('courses').set({ status }).where('id', '=', courseId).execute()
    try {
      await check()
    } finally {
      await db().updateTable('courses').set({ status: 'published' }).where('id', '=', courseId).execute()
    }
  }
  async function previewAndLocked(courseId: string) {
    const lessons = await lessonsOf(db(), courseId)
    const preview = lessons.find((l) => l.is_preview)
    const locked = lessons.find((l) => !l.is_preview)
    if (!preview || !locked) throw new Error('no preview or no locked lesson')
    return { preview, locked }
  }

  it('a draft: its buyer, Premium members and others open no lesson, previews included; staff do', async () => {
    const courseId = 'nodejs-api-development'
    const { user: owner } = await buyerOfCourse(db(), courseId)
    const { preview, locked } = await previewAndLocked(courseId)
    await whileCourseIs(courseId, 'draft', async () => {
      const draft = { id: courseId, status: 'draft', includedInPremium: true } as const
      for (const [user, lesson] of [
        [owner, locked],
        [owner, preview],
        [premium, locked],
        [stranger, preview],
      ] as const) {
        const caller = await callerAs(db(), user)
        await expect(
          caller.learning.setCompleted({ courseId, lessonId: lesson.id, completed: true }),
        ).rejects.toMatchObject(NO_ACCESS)
        expect(await canOpenLesson(db(), user, draft, { id: lesson.id, isPreview: lesson.is_preview })).toBe(false)
      }
      expect(await canOpenLesson(db(), null, draft, { id: locked.id, isPreview: true })).toBe(false)
      await expect(
        (await callerAs(db(), owner)).learning.lesson({ courseId, lessonId: locked.id }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' })
      const answer = await (await callerAs(db(), staff)).learning.lesson({ courseId, lessonId: locked.id })
      expect(answer.locked).toBe(false)
      expect(await canOpenLesson(db(), staff, draft, { id: locked.id, isPreview: false })).toBe(true)
    })
    const rows = await db()
      .selectFrom('lesson_progress')
      .select('user_id')
      .where('course_id', '=', courseId)
      .where('user_id', 'in', [owner.id, premium.id, stranger.id])
      .execute()
    expect(rows).toEqual([])
  })

  it('archived: its buyers keep it, Premium no longer opens it, and its previews are closed to others', async () => {
    const courseId = 'python-data-analysis'
    const { user: owner } = await buyerOfCourse(db(), courseId)
    const { preview, locked } = await previewAndLocked(courseId)
    await whileCourseIs(courseId, 'archived', async () => {
      const ownerCaller = await callerAs(db(), owner)
      expect((await ownerCaller.learning.course({ courseId })).hasAccess).toBe(true)
      expect((await ownerCaller.learning.lesson({ courseId, lessonId: locked.id })).locked).toBe(false)

      const member = await callerAs(db(), premium)
      expect((await member.learning.course({ courseId })).hasAccess).toBe(false)
      const closed = await member.learning.lesson({ courseId, lessonId: locked.id })
      expect([closed.locked, closed.content]).toEqual([true, null])
      await expect(
        member.learning.setCompleted({ courseId, lessonId: locked.id, completed: true }),
      ).rejects.toMatchObject(NO_ACCESS)

      const visitorPreview = await (await callerAs(db(), null)).learning.lesson({ courseId, lessonId: preview.id })
      expect([visitorPreview.locked, visitorPreview.content]).toEqual([true, null])
      await expect(
        (await callerAs(db(), stranger)).learning.setCompleted({ courseId, lessonId: preview.id, completed: true }),
      ).rejects.toMatchObject(NO_ACCESS)
      const archived = { id: courseId, status: 'archived', includedInPremium: true } as const
      expect(await canOpenLesson(db(), premium, archived, { id: locked.id, isPreview: false })).toBe(false)
      expect(await canOpenLesson(db(), null, archived, { id: preview.id, isPreview: true })).toBe(false)
      expect(await canOpenLesson(db(), owner, archived, { id: locked.id, isPreview: false })).toBe(true)
    })
  })
})

describe('no lesson body or media address leaks', () => {
  for (const who of ['visitor', 'stranger', 'premium'] as const) {
    it(`${who}: no procedure answers with a locked lesson's body or video key`, async () => {
      const caller = await callerAs(db(), userOf(who))
      const answers: unknown[] = []
      const locked: string[] = []
      for (const courseId of who === 'premium' ? [EXCLUDED] : [INCLUDED, EXCLUDED]) {
        locked.push(...(await lessonsOf(db(), courseId)).filter((l) => !l.is_preview).map((l) => l.id))
        answers.push(await caller.catalog.course({ id: courseId }))
        answers.push(await caller.learning.course({ courseId }))
        for (const lesson of await lessonsOf(db(), courseId)) {
          answers.push(await caller.learning.lesson({ courseId, lessonId: lesson.id }))
        }
      }
      answers.push(await caller.catalog.search({ search: 'SQL' }))
      answers.push(await caller.catalog.featuredCourses({ limit: 24 }))
      if (who !== 'visitor') {
        answers.push(await caller.learning.myCourses())
        answers.push(await caller.purchases.myCourses())
      }
      const text = JSON.stringify(answers)
      expect(text).not.toContain(SECRET)
      expect(text).not.toContain('secret-7f3a')
      for (const id of locked) expect(text).not.toContain(`/api/learn/media/${id}`)
    })
  }

  it('progress writes on a locked lesson are refused; a visitor must sign in', async () => {
    const lesson = (await lessonsOf(db(), EXCLUDED)).find((l) => !l.is_preview)
    if (!lesson) throw new Error('no locked lesson')
    const input = { courseId: EXCLUDED, lessonId: lesson.id }
    for (const who of ['stranger', 'premium', 'buyer'] as const) {
      const caller = await callerAs(db(), userOf(who))
      await expect(caller.learning.setCompleted({ ...input, completed: true })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      })
      await expect(
        caller.learning.saveProgress({ ...input, positionSeconds: 5, ranges: [[0, 5]], sentAt: Date.now() }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' })
    }
    const visitor = await callerAs(db(), null)
    const error = await visitor.learning.setCompleted({ ...input, completed: true }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TRPCError)
    expect((error as TRPCError).code).toBe('UNAUTHORIZED')
    const rows = await db().selectFrom('lesson_progress').select('user_id').where('lesson_id', '=', lesson.id).execute()
    expect(rows).toEqual([])
  })
})

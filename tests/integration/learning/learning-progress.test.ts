// Progress writes: Mark as complete and its undo, video positions and watched ranges (idempotent, never backwards,
// 90 % auto-completion, no credit for seeking, new watching believed up to 2× the time since the last save + 5 s),
// who may write (not found, forbidden), and the course completing exactly once, with its e-mail (exact wording) and
// certificate, even under 20 concurrent writes (run with TEST_DATABASE_URL for PostgreSQL's real concurrency).

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { insertCourse } from '../../../db/seed/factories.ts'
import { grant, restore, revoke } from '../../../src-server/access/ledger.ts'
import { applyPendingChanges } from '../../../src-server/catalog/course-review.ts'
import { writeCurriculum } from '../../../src-server/catalog/curriculum-editing.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse, lessonsOf, premiumMember } from '../../support/learning.ts'
import { SAMPLE_QUESTIONS } from '../../support/quizzes.ts'
import { raceIt, whileRowHeld } from '../../support/race.ts'

let database: DatabaseHandle
const db = () => database.db
let categoryId: string
let courseCount = 0

beforeAll(async () => {
  database = await createTestDatabase()
  const category = await db().selectFrom('categories').select('id').limit(1).executeTakeFirstOrThrow()
  categoryId = category.id
})
afterAll(() => database.close())

/** A published course with three article lessons and one 60 s video lesson, with a certificate. */
async function smallCourse(certificate = true) {
  courseCount += 1
  const id = `learning-course-${courseCount}`
  const title = `Learning course ${courseCount}`
  await insertCourse(db(), {
    id,
    title,
    category_id: categoryId,
    certificate,
    status: 'published',
  })
  await writeCurriculum(db(), id, [
    {
      title: 'Only section',
      lessons: [
        { title: 'One', durationSeconds: 300, isPreview: true },
        { title: 'Two', durationSeconds: 300, isPreview: false },
        { title: 'Three', durationSeconds: 300, isPreview: false },
        { title: 'Video', durationSeconds: 60, isPreview: false, kind: 'video', videoKey: 'demo/recap.webm' },
      ],
    },
  ])
  const lessons = await lessonsOf(db(), id)
  return { id, title, lessons }
}

async function learnerOf(courseId: string): Promise<TestUser> {
  return (await buyerOfCourse(db(), courseId)).user
}

const completionMails = (to: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['to_address', 'subject', 'text_body'])
    .where('to_address', '=', to)
    .where('kind', '=', 'course_completed')
    .execute()

describe('Mark as complete', () => {
  it('counts N of M, can be undone, and is idempotent', async () => {
    const course = await smallCourse()
    const user = await learnerOf(course.id)
    const caller = await callerAs(db(), user)
    const [one] = course.lessons
    const ref = { courseId: course.id, lessonId: one?.id ?? '' }
    expect((await caller.learning.course({ courseId: course.id })).progress).toEqual({
      completed: 0,
      total: 4,
      percent: 0,
    })
    // Each answer is exact: a lesson that completes (or already was) is complete; the course is not done yet.
    const notDone = { courseCompleted: false, certificateId: null }
    expect(await caller.learning.setCompleted({ ...ref, completed: true })).toEqual({ completed: true, ...notDone })
    expect(await caller.learning.setCompleted({ ...ref, completed: true })).toEqual({ completed: true, ...notDone })
    let player = await caller.learning.course({ courseId: course.id })
    expect(player.progress).toEqual({ completed: 1, total: 4, percent: 25 })
    expect(player.sections[0]?.lessons[0]?.completed).toBe(true)
    expect((await caller.learning.lesson(ref)).progress?.completed).toBe(true)
    // Undoing answers "not complete" (never a completion), and undoing again changes nothing.
    expect(await caller.learning.setCompleted({ ...ref, completed: false })).toEqual({ completed: false, ...notDone })
    expect(await caller.learning.setCompleted({ ...ref, completed: false })).toEqual({ completed: false, ...notDone })
    player = await caller.learning.course({ courseId: course.id })
    expect(player.progress.completed).toBe(0)
  })

  it('a lesson of another course is not found; a lesson the user may not open is forbidden and nothing is saved', async () => {
    const course = await smallCourse()
    const other = await smallCourse()
    const learner = await callerAs(db(), await learnerOf(course.id))
    const foreign = { courseId: course.id, lessonId: other.lessons[3]?.id ?? '' }
    const notFound = { code: 'NOT_FOUND', message: 'Lesson not found' }
    await expect(learner.learning.setCompleted({ ...foreign, completed: true })).rejects.toMatchObject(notFound)
    await expect(
      learner.learning.saveProgress({ ...foreign, positionSeconds: 5, ranges: [[0, 5]], sentAt: Date.now() }),
    ).rejects.toMatchObject(notFound)

    // A signed-in user who does not hold the course: its preview lesson opens, the others are refused.
    const stranger = await createUser(db())
    const caller = await callerAs(db(), stranger)
    const forbidden = { code: 'FORBIDDEN', message: 'You do not have access to this lesson' }
    const locked = { courseId: course.id, lessonId: course.lessons[1]?.id ?? '' }
    const video = { courseId: course.id, lessonId: course.lessons[3]?.id ?? '' }
    await expect(caller.learning.setCompleted({ ...locked, completed: true })).rejects.toMatchObject(forbidden)
    await expect(
      caller.learning.saveProgress({ ...video, positionSeconds: 5, ranges: [[0, 5]], sentAt: Date.now() }),
    ).rejects.toMatchObject(forbidden)
    const rows = await db()
      .selectFrom('lesson_progress')
      .select('lesson_id')
      .where('user_id', '=', stranger.id)
      .execute()
    expect(rows).toEqual([])
  })

  it("a visitor's preview lessons never complete the course, even when every lesson is a preview", async () => {
    courseCount += 1
    const id = `learning-course-${courseCount}`
    await insertCourse(db(), { id, title: `Previews ${courseCount}`, category_id: categoryId, status: 'published' })
    await writeCurriculum(db(), id, [
      {
        title: 'Only section',
        lessons: [
          { title: 'Open one', durationSeconds: 60, isPreview: true },
          { title: 'Open two', durationSeconds: 60, isPreview: true },
        ],
      },
    ])
    const stranger = await createUser(db())
    const caller = await callerAs(db(), stranger)
    for (const lesson of await lessonsOf(db(), id)) {
      expect(await caller.learning.setCompleted({ courseId: id, lessonId: lesson.id, completed: true })).toEqual({
        completed: true,
        courseCompleted: false,
        certificateId: null,
      })
    }
    expect((await caller.learning.course({ courseId: id })).progress).toEqual({ completed: 2, total: 2, percent: 100 })
    const completions = await db()
      .selectFrom('course_completions')
      .select('user_id')
      .where('course_id', '=', id)
      .execute()
    expect(completions).toEqual([])
    expect(await db().selectFrom('certificates').select('id').where('course_id', '=', id).execute()).toEqual([])
    expect(await completionMails(stranger.email)).toEqual([])
  })
})

describe('learning.myCourses', () => {
  it('lists bought and Premium-started courses with their real progress, most recent activity first', async () => {
    const bought = await smallCourse()
    const user = await learnerOf(bought.id)
    const caller = await callerAs(db(), user)
    let mine = await caller.learning.myCourses()
    expect(mine.map((c) => [c.id, c.progress.percent, c.completedAt])).toEqual([[bought.id, 0, null]])
    await caller.learning.setCompleted({ courseId: bought.id, lessonId: bought.lessons[0]?.id ?? '', completed: true })
    // A preview lesson of a course the learner does not hold: not one of "my courses".
    const other = await smallCourse()
    await caller.learning.setCompleted({ courseId: other.id, lessonId: other.lessons[0]?.id ?? '', completed: true })
    mine = await caller.learning.myCourses()
    expect(mine.map((c) => c.id)).toEqual([bought.id])
    expect(mine[0]?.progress).toEqual({ completed: 1, total: 4, percent: 25 })

    // A Premium member's started course (included in Premium) is theirs, without an enrolment.
    const member = (await premiumMember(db())).user
    const memberCaller = await callerAs(db(), member)
    await memberCaller.learning.setCompleted({
      courseId: other.id,
      lessonId: other.lessons[1]?.id ?? '',
      completed: true,
    })
    const theirs = await memberCaller.learning.myCourses()
    expect(theirs.map((c) => [c.id, c.enrolledAt, c.progress.completed])).toEqual([[other.id, null, 1]])
  })
})

describe('video progress', () => {
  it('saves the position to resume, merges ranges, and a late write never moves the position back', async () => {
    const course = await smallCourse()
    const user = await learnerOf(course.id)
    const caller = await callerAs(db(), user)
    const video = course.lessons[3]
    const ref = { courseId: course.id, lessonId: video?.id ?? '' }
    const now = Date.now()
    await caller.learning.saveProgress({ ...ref, positionSeconds: 15, ranges: [[0, 15]], sentAt: now - 1000 })
    const repeated = await caller.learning.saveProgress({
      ...ref,
      positionSeconds: 15,
      ranges: [[0, 15]],
      sentAt: now - 1000,
    })
    expect(repeated).toMatchObject({ positionSeconds: 15, watchedSeconds: 15, completed: false })
    // A write sent earlier but arriving later keeps its ranges' credit and leaves the position alone.
    const late = await caller.learning.saveProgress({
      ...ref,
      positionSeconds: 5,
      ranges: [[0, 5]],
      sentAt: now - 5000,
    })
    expect(late.positionSeconds).toBe(15)
    expect((await caller.learning.lesson(ref)).progress).toEqual({
      positionSeconds: 15,
      watchedSeconds: 15,
      completed: false,
    })
    expect((await caller.learning.course({ courseId: course.id })).resumeLessonId).toBe(video?.id)
  })

  it('completes by itself at 90 % watched; seeking past the end or claiming too much does not count', async () => {
    const course = await smallCourse()
    const caller = await callerAs(db(), await learnerOf(course.id))
    const ref = { courseId: course.id, lessonId: course.lessons[3]?.id ?? '' }
    try {
      // A first write claiming the whole minute at once is more than 15 s of playback can give: not believed.
      const greedy = await caller.learning.saveProgress({
        ...ref,
        positionSeconds: 60,
        ranges: [[0, 60]],
        sentAt: clock.nowMs(),
      })
      expect(greedy).toMatchObject({ watchedSeconds: 0, completed: false })
      // A minute later: played 0–30, then jumped to the end and played 55–60: 35 s watched, not complete.
      await clock.advanceClock(60)
      await caller.learning.saveProgress({ ...ref, positionSeconds: 30, ranges: [[0, 30]], sentAt: clock.nowMs() })
      const skipped = await caller.learning.saveProgress({
        ...ref,
        positionSeconds: 60,
        ranges: [[55, 60]],
        sentAt: clock.nowMs(),
      })
      expect(skipped).toMatchObject({ watchedSeconds: 35, completed: false })
      // Going back and playing 30–50 reaches 55 s of 60 (over 90 %): the lesson completes.
      await clock.advanceClock(15)
      const done = await caller.learning.saveProgress({
        ...ref,
        positionSeconds: 50,
        ranges: [[30, 50]],
        sentAt: clock.nowMs(),
      })
      expect(done).toMatchObject({ watchedSeconds: 55, completed: true })
      // Watching more never un-completes it.
      const after = await caller.learning.saveProgress({
        ...ref,
        positionSeconds: 52,
        ranges: [[50, 52]],
        sentAt: clock.nowMs(),
      })
      expect(after.completed).toBe(true)
    } finally {
      clock.resetClock()
    }
  })

  raceIt('six saves of one video at once keep every watched range: merged, completed once', async () => {
    const course = await smallCourse()
    const user = await learnerOf(course.id)
    const ref = { courseId: course.id, lessonId: course.lessons[3]?.id ?? '' }
    const callers = await Promise.all(Array.from({ length: 6 }, () => callerAs(db(), user)))
    // A first save a minute ago (on the server's clock) makes the row; six tabs then each report ten more seconds of
    // the minute-long video.
    const start = clock.nowMs()
    await callers[0]!.learning.saveProgress({ ...ref, positionSeconds: 0, ranges: [], sentAt: start })
    await clock.advanceClock(60)
    const key = { user_id: user.id, lesson_id: ref.lessonId }
    const results = await whileRowHeld(db(), 'lesson_progress', key, () =>
      Promise.all(
        callers.map((caller, i) =>
          caller.learning.saveProgress({
            ...ref,
            positionSeconds: i * 10 + 10,
            ranges: [[i * 10, i * 10 + 10]],
            sentAt: start + i + 1,
          }),
        ),
      ),
    ).finally(() => clock.resetClock())
    // Each save merges into what the one before it left: 10, 20, … 60 s watched; only the last completes the lesson.
    expect(results.map((result) => result.watchedSeconds).sort((a, b) => a - b)).toEqual([10, 20, 30, 40, 50, 60])
    expect(results.filter((result) => result.completed)).toHaveLength(1)
    const row = await db()
      .selectFrom('lesson_progress')
      .select(['watched_ranges', 'watched_seconds', 'position_seconds'])
      .where('user_id', '=', user.id)
      .where('lesson_id', '=', ref.lessonId)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ watched_ranges: [[0, 60]], watched_seconds: 60, position_seconds: 60 })
  })

  it('tracks a YouTube or Vimeo lesson the same way: position to resume, 90 % watched completes it', async () => {
    for (const videoUrl of ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://vimeo.com/76979871']) {
      const course = await smallCourse()
      const lesson = course.lessons[3]
      await db()
        .updateTable('lessons')
        .set({ video_key: null, video_url: videoUrl })
        .where('id', '=', lesson?.id ?? '')
        .execute()
      const caller = await callerAs(db(), await learnerOf(course.id))
      const ref = { courseId: course.id, lessonId: lesson?.id ?? '' }
      const opened = await caller.learning.lesson(ref)
      expect(opened.content?.video).toMatchObject({ type: 'embed' })
      // What the embed adapter reports: 0–30 s played, paused at 30 (the position to resume from).
      await caller.learning.saveProgress({
        ...ref,
        positionSeconds: 30,
        ranges: [[0, 30]],
        sentAt: clock.nowMs(),
      })
      expect((await caller.learning.lesson(ref)).progress).toEqual({
        positionSeconds: 30,
        watchedSeconds: 30,
        completed: false,
      })
      await clock.advanceClock(15)
      const done = await caller.learning.saveProgress({
        ...ref,
        positionSeconds: 55,
        ranges: [[30, 55]],
        sentAt: clock.nowMs(),
      })
      clock.resetClock()
      expect(done).toMatchObject({ watchedSeconds: 55, completed: true })
    }
  })

  it('refuses video progress on an article lesson', async () => {
    const course = await smallCourse()
    const caller = await callerAs(db(), await learnerOf(course.id))
    await expect(
      caller.learning.saveProgress({
        courseId: course.id,
        lessonId: course.lessons[1]?.id ?? '',
        positionSeconds: 1,
        ranges: [],
        sentAt: Date.now(),
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'This lesson is not a video' })
  })

  it('believes new watching up to exactly 2× the time on the server clock plus 5 s, whatever sentAt says', async () => {
    // The clock is held still (Date only) so the server's time between saves is exact to the millisecond.
    const start = Math.floor(Date.now() / 1000) * 1000
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(start)
      const course = await smallCourse()
      const user = await learnerOf(course.id)
      const caller = await callerAs(db(), user)
      const ref = { courseId: course.id, lessonId: course.lessons[3]?.id ?? '' }
      const save = (at: number, positionSeconds: number, ranges: [number, number][], sentAt = at) => {
        vi.setSystemTime(at)
        return caller.learning.saveProgress({ ...ref, positionSeconds, ranges, sentAt })
      }
      const open = { completed: false, courseCompleted: false, certificateId: null }
      // The first save says it was sent an hour ago: that buys nothing. A first save is believed for one save
      // interval of playback, 15 s × 2 + 5 = 35 s, counted from the server's clock.
      expect(await save(start, 0, [], start - 3_600_000)).toEqual({ positionSeconds: 0, watchedSeconds: 0, ...open })
      expect(await save(start, 36, [[0, 35.01]])).toEqual({ positionSeconds: 36, watchedSeconds: 0, ...open })
      expect(await save(start, 35, [[0, 35]])).toEqual({ positionSeconds: 35, watchedSeconds: 35, ...open })
      // 5 s later, 35 s at 2× took 17.5 s of the 20 s since: 2.5 × 2 + 5 = 10 s more is believed, to the hundredth.
      expect(await save(start + 5_000, 45, [[35, 45.01]])).toEqual({ positionSeconds: 45, watchedSeconds: 35, ...open })
      expect(await save(start + 5_000, 45, [[35, 45]])).toEqual({ positionSeconds: 45, watchedSeconds: 45, ...open })
      // The 5 s of grace is used up, not given again to each save sent straight after ...
      expect(await save(start + 5_000, 46, [[45, 46]])).toEqual({ positionSeconds: 46, watchedSeconds: 45, ...open })
      // ... and a save dated earlier makes no room either (nor moves the position back: it is older).
      expect(await save(start + 5_000, 50, [[45, 50]], start - 60_000)).toEqual({
        positionSeconds: 46,
        watchedSeconds: 45,
        ...open,
      })
      // A save sent at the same moment as the last one is not older: its position (seeking back) is kept.
      expect(await save(start + 5_000, 40, [])).toEqual({ positionSeconds: 40, watchedSeconds: 45, ...open })
      expect((await caller.learning.lesson(ref)).progress).toEqual({
        positionSeconds: 40,
        watchedSeconds: 45,
        completed: false,
      })

      // The articles done, watching the video's last 15 s when the server's clock allows it (7.5 s after what the
      // 45 s believed used up: 7.5 × 2 = 15 s, before the grace) completes the lesson by itself, and the course.
      for (const lesson of course.lessons.slice(0, 3)) {
        await caller.learning.setCompleted({ courseId: course.id, lessonId: lesson.id, completed: true })
      }
      const done = await save(start + 12_500, 60, [[45, 60]])
      expect(done).toEqual({
        positionSeconds: 60,
        watchedSeconds: 60,
        completed: true,
        courseCompleted: true,
        certificateId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      })
      expect((await caller.learning.lesson(ref)).progress).toEqual({
        positionSeconds: 60,
        watchedSeconds: 60,
        completed: true,
      })
      // Watching again later: still complete, completed when it first was, the course not completed again.
      expect(await save(start + 30_000, 10, [[0, 60]])).toEqual({
        positionSeconds: 10,
        watchedSeconds: 60,
        completed: true,
        courseCompleted: false,
        certificateId: null,
      })
      const row = await db()
        .selectFrom('lesson_progress')
        .select(['completed_at', 'updated_at', 'allowance_from'])
        .where('user_id', '=', user.id)
        .where('lesson_id', '=', ref.lessonId)
        .executeTakeFirstOrThrow()
      // 60 s believed at 2× is 30 s of the server's clock from 15 s before the first save.
      expect(row).toEqual({
        completed_at: new Date(start + 12_500),
        updated_at: new Date(start + 30_000),
        allowance_from: new Date(start + 15_000),
      })
      expect(await completionMails(user.email)).toHaveLength(1)
    } finally {
      vi.useRealTimers()
    }
  })

  it('progress made offline and sent in a burst is believed as far as the time since the last save covers it', async () => {
    const start = Math.floor(Date.now() / 1000) * 1000
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(start)
      const course = await smallCourse()
      const caller = await callerAs(db(), await learnerOf(course.id))
      const ref = { courseId: course.id, lessonId: course.lessons[3]?.id ?? '' }
      await caller.learning.saveProgress({ ...ref, positionSeconds: 0, ranges: [], sentAt: start })
      // Watched offline for a minute, a write queued every 15 s; back online, the four arrive one after another.
      vi.setSystemTime(start + 120_000)
      const results = []
      for (let i = 0; i < 4; i += 1) {
        const ranges: [number, number][] = [[i * 15, i * 15 + 15]]
        results.push(
          await caller.learning.saveProgress({
            ...ref,
            positionSeconds: i * 15 + 15,
            ranges,
            sentAt: start + i * 15_000,
          }),
        )
      }
      expect(results.map((result) => result.watchedSeconds)).toEqual([15, 30, 45, 60])
      expect(results.at(-1)).toMatchObject({ positionSeconds: 60, completed: true })
    } finally {
      vi.useRealTimers()
    }
  })

  it('a save dated in the past buys no watching and no Premium minutes; nor do saves sent one after another', async () => {
    // A course in Premium with an hour-long video, watched by a Premium member.
    courseCount += 1
    const id = `learning-course-${courseCount}`
    await insertCourse(db(), { id, title: `Hour ${courseCount}`, category_id: categoryId, status: 'published' })
    await db().updateTable('courses').set({ included_in_premium: true }).where('id', '=', id).execute()
    await writeCurriculum(db(), id, [
      {
        title: 'Only section',
        lessons: [
          { title: 'Hour', durationSeconds: 3600, isPreview: false, kind: 'video', videoKey: 'demo/recap.webm' },
        ],
      },
    ])
    const [lesson] = await lessonsOf(db(), id)
    const { user } = await premiumMember(db())
    const caller = await callerAs(db(), user)
    const ref = { courseId: id, lessonId: lesson?.id ?? '' }
    const premiumSeconds = async () =>
      (
        await db()
          .selectFrom('premium_watch_time')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('seconds'), eb.lit(0)).as('seconds'))
          .where('user_id', '=', user.id)
          .where('course_id', '=', id)
          .executeTakeFirstOrThrow()
      ).seconds
    // On a whole second, after the membership began.
    const start = Math.ceil(Date.now() / 1000) * 1000 + 1000
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(start)
      // The audit's claim: a first save dated at the epoch's first millisecond, then the whole hour straight after.
      await caller.learning.saveProgress({ ...ref, positionSeconds: 0, ranges: [], sentAt: 1 })
      const hour = await caller.learning.saveProgress({ ...ref, positionSeconds: 3600, ranges: [[0, 3600]], sentAt: 1 })
      expect(hour).toMatchObject({ watchedSeconds: 0, completed: false })
      expect(Number(await premiumSeconds())).toBe(0)
      // Twenty saves of 5 s each, sent at once: only the first save's 35 s are believed, not 5 s of grace each.
      for (let i = 0; i < 20; i += 1) {
        await caller.learning.saveProgress({ ...ref, positionSeconds: 0, ranges: [[i * 5, i * 5 + 5]], sentAt: start })
      }
      expect((await caller.learning.lesson(ref)).progress).toMatchObject({ watchedSeconds: 35 })
      // The pool's seconds run on the member's own clock at 1× (decision 0115): one save interval, 15 s.
      expect(Number(await premiumSeconds())).toBe(15)
      // A minute later on the server's clock, a minute at 2× is believed; the pool counts the minute.
      vi.setSystemTime(start + 60_000)
      const minute = await caller.learning.saveProgress({
        ...ref,
        positionSeconds: 155,
        ranges: [[35, 155]],
        sentAt: start + 60_000,
      })
      expect(minute).toMatchObject({ watchedSeconds: 155, completed: false })
      expect(Number(await premiumSeconds())).toBe(75)
    } finally {
      vi.useRealTimers()
    }
  })

  it("several lessons playing at once in several tabs credit no more Premium watch time than the server's clock ran", async () => {
    // A course in Premium with four hour-long videos, played at once (at 2×) by one Premium member in four tabs.
    courseCount += 1
    const id = `learning-course-${courseCount}`
    await insertCourse(db(), { id, title: `Tabs ${courseCount}`, category_id: categoryId, status: 'published' })
    await db().updateTable('courses').set({ included_in_premium: true }).where('id', '=', id).execute()
    const video = (n: number) => ({
      title: `Hour ${n}`,
      durationSeconds: 3600,
      isPreview: false,
      kind: 'video' as const,
      videoKey: 'demo/recap.webm',
    })
    await writeCurriculum(db(), id, [{ title: 'Only section', lessons: [video(1), video(2), video(3), video(4)] }])
    const lessons = await lessonsOf(db(), id)
    const { user } = await premiumMember(db())
    const caller = await callerAs(db(), user)
    const premiumSeconds = async () =>
      Number(
        (
          await db()
            .selectFrom('premium_watch_time')
            .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('seconds'), eb.lit(0)).as('seconds'))
            .where('user_id', '=', user.id)
            .executeTakeFirstOrThrow()
        ).seconds,
      )
    const start = Math.ceil(Date.now() / 1000) * 1000 + 1000
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      // Every 15 s for ten minutes, each tab saves the next 30 s of its lesson (2× playback).
      for (let step = 0; step <= 40; step += 1) {
        vi.setSystemTime(start + step * 15_000)
        for (const lesson of lessons) {
          await caller.learning.saveProgress({
            courseId: id,
            lessonId: lesson.id,
            positionSeconds: (step + 1) * 30,
            ranges: [[step * 30, (step + 1) * 30]],
            sentAt: start + step * 15_000,
          })
        }
        // Each lesson's own progress is believed (its allowance is per lesson) ...
        // ... but the member's credited watch time never runs ahead of the server's clock (from one save interval
        // before the first save): 600 s of wall-clock time credit at most 615 s, not 4 tabs × 2× = 4,800 s.
        expect(await premiumSeconds()).toBeLessThanOrEqual(step * 15 + 15)
      }
      expect((await caller.learning.lesson({ courseId: id, lessonId: lessons[3]?.id ?? '' })).progress).toMatchObject({
        watchedSeconds: 1230,
      })
      expect(await premiumSeconds()).toBe(615)
      // Idle time builds no bank several tabs could spend at once: after a day away, a burst of the four tabs
      // credits at most PREMIUM_WATCH_BANK_MS (5 min) more.
      vi.setSystemTime(start + 40 * 15_000 + 86_400_000)
      for (const lesson of lessons) {
        await caller.learning.saveProgress({
          courseId: id,
          lessonId: lesson.id,
          positionSeconds: 3600,
          ranges: [[1230, 3600]],
          sentAt: start + 40 * 15_000 + 86_400_000,
        })
      }
      expect(await premiumSeconds()).toBe(615 + 300)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('course completion', () => {
  async function completeAll(
    caller: Awaited<ReturnType<typeof callerAs>>,
    course: Awaited<ReturnType<typeof smallCourse>>,
  ) {
    const results = []
    for (const lesson of course.lessons) {
      results.push(await caller.learning.setCompleted({ courseId: course.id, lessonId: lesson.id, completed: true }))
    }
    return results
  }

  it('completes once with one e-mail and a verified certificate; lessons added later are counted, not undone', async () => {
    const course = await smallCourse()
    const user = await learnerOf(course.id)
    const caller = await callerAs(db(), user)
    const results = await completeAll(caller, course)
    expect(results.map((r) => r.courseCompleted)).toEqual([false, false, false, true])
    const certificateId = results[3]?.certificateId
    expect(certificateId).toMatch(/^[0-9a-f-]{36}$/)
    expect(await completionMails(user.email)).toEqual([
      {
        to_address: user.email,
        subject: `You completed ${course.title}`,
        text_body: [
          `Hi ${user.firstName},`,
          `Congratulations: you completed every lesson of "${course.title}".`,
          `Your Certificate of Completion: http://localhost:3000/certificates/${certificateId}`,
          'SkillForge',
        ].join('\n\n'),
      },
    ])

    const visitor = await callerAs(db(), null)
    const certificate = await visitor.learning.certificate({ id: certificateId ?? '' })
    expect(certificate).toMatchObject({
      learnerName: `${user.firstName} ${user.lastName}`,
      courseTitle: expect.stringContaining('Learning course'),
      instructorName: 'SkillForge Instructor',
      status: 'verified',
    })
    expect(certificate.linkedInUrl).toContain('https://www.linkedin.com/profile/add?startTask=CERTIFICATION_NAME')

    // Undoing and redoing a lesson does not complete the course a second time.
    const last = course.lessons[3]?.id ?? ''
    await caller.learning.setCompleted({ courseId: course.id, lessonId: last, completed: false })
    const again = await caller.learning.setCompleted({ courseId: course.id, lessonId: last, completed: true })
    expect(again.courseCompleted).toBe(false)
    expect(await completionMails(user.email)).toHaveLength(1)

    // A lesson added after completion: the completion and certificate stand, the learner sees it was added.
    const lessons = await lessonsOf(db(), course.id)
    await writeCurriculum(db(), course.id, [
      {
        title: 'Only section',
        lessons: [
          ...lessons.map((l) => ({
            id: l.id,
            title: l.title,
            durationSeconds: l.duration_seconds,
            isPreview: l.is_preview,
          })),
          { title: 'Bonus', durationSeconds: 120, isPreview: false },
        ],
      },
    ])
    const player = await caller.learning.course({ courseId: course.id })
    expect(player.progress).toEqual({ completed: 4, total: 5, percent: 80 })
    expect(player.completion).toMatchObject({ certificateId, lessonsAddedSince: 1 })
    expect((await visitor.learning.certificate({ id: certificateId ?? '' })).status).toBe('verified')
  })

  it('a lesson not done deleted: the player finds every lesson left complete and completes the course, once', async () => {
    const course = await smallCourse()
    const user = await learnerOf(course.id)
    const caller = await callerAs(db(), user)
    for (const lesson of course.lessons.slice(0, 3)) {
      await caller.learning.setCompleted({ courseId: course.id, lessonId: lesson.id, completed: true })
    }
    // Staff delete the video the learner had not watched: every lesson left is complete, no write of theirs did it.
    const lessons = await lessonsOf(db(), course.id)
    await writeCurriculum(db(), course.id, [
      {
        title: 'Only section',
        lessons: lessons.slice(0, 3).map((l) => ({
          id: l.id,
          title: l.title,
          durationSeconds: l.duration_seconds,
          isPreview: l.is_preview,
        })),
      },
    ])
    const player = await caller.learning.course({ courseId: course.id })
    expect(player.progress).toEqual({ completed: 3, total: 3, percent: 100 })
    const certificateId = player.completion?.certificateId ?? ''
    expect(player.completion).toEqual({
      completedAt: expect.any(String),
      certificateId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      lessonsAddedSince: 0,
    })
    expect(await completionOf(user.id, course.id)).toEqual([
      { lesson_count: 3, access_source: 'purchase', certificate_id: certificateId },
    ])
    expect((await (await callerAs(db(), null)).learning.certificate({ id: certificateId })).status).toBe('verified')
    // Loading it again, or My courses, completes nothing more: one completion, one e-mail.
    expect((await caller.learning.course({ courseId: course.id })).completion).toEqual(player.completion)
    const mine = (await caller.learning.myCourses()).find((c) => c.id === course.id)
    expect(mine?.completedAt).toBe(player.completion?.completedAt)
    expect(await completionMails(user.email)).toHaveLength(1)
  })

  it('a required quiz made optional: My courses finds every counted lesson complete and completes the course', async () => {
    courseCount += 1
    const id = `learning-course-${courseCount}`
    await insertCourse(db(), { id, title: `Quiz ${courseCount}`, category_id: categoryId, status: 'published' })
    await writeCurriculum(db(), id, [
      {
        title: 'Only section',
        lessons: [
          { title: 'Read', durationSeconds: 60, isPreview: false },
          { title: 'Check', durationSeconds: 60, isPreview: false, kind: 'quiz' },
        ],
      },
    ])
    const [read, check] = await lessonsOf(db(), id)
    const staff = await callerAs(db(), await createUser(db(), { role: 'editor' }))
    const saveQuiz = (required: boolean) =>
      staff.quizzes.save({
        courseId: id,
        lessonId: check?.id ?? '',
        settings: {
          passPercent: 80,
          maxAttempts: null,
          waitMinutes: 0,
          timeLimitMinutes: null,
          shuffleQuestions: false,
          shuffleOptions: false,
          required,
        },
        questions: SAMPLE_QUESTIONS,
      })
    await saveQuiz(true)
    const user = await learnerOf(id)
    const caller = await callerAs(db(), user)
    const done = await caller.learning.setCompleted({ courseId: id, lessonId: read?.id ?? '', completed: true })
    expect(done).toEqual({ completed: true, courseCompleted: false, certificateId: null })
    // The quiz is made optional: the lesson read is now all the course asks.
    await saveQuiz(false)
    const mine = (await caller.learning.myCourses()).find((c) => c.id === id)
    expect(mine?.progress).toEqual({ completed: 1, total: 1, percent: 100 })
    expect(mine?.completedAt).toEqual(expect.any(String))
    expect(await completionOf(user.id, id)).toEqual([
      { lesson_count: 1, access_source: 'purchase', certificate_id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    ])
    expect((await caller.learning.course({ courseId: id })).completion?.completedAt).toBe(mine?.completedAt)
    expect(await completionMails(user.email)).toHaveLength(1)
  })

  it('counts a lesson approved after the completion as added since, though it was written before', async () => {
    const course = await smallCourse()
    const user = await learnerOf(course.id)
    const caller = await callerAs(db(), user)
    // The creator adds a lesson to the course on sale: it waits for review, learners do not see it yet.
    const { section_id } = await db()
      .selectFrom('lessons')
      .select('section_id')
      .where('id', '=', course.lessons[0]?.id ?? '')
      .executeTakeFirstOrThrow()
    await db()
      .insertInto('lessons')
      .values({ course_id: course.id, section_id, position: 9, title: 'Reviewed later', pending_review: true })
      .execute()
    const results = await completeAll(caller, course)
    expect(results[3]?.courseCompleted).toBe(true)
    expect((await caller.learning.course({ courseId: course.id })).completion?.lessonsAddedSince).toBe(0)
    // Staff approve it after the completion: it went live then, so it is one lesson added since.
    await applyPendingChanges(db(), course.id)
    const player = await caller.learning.course({ courseId: course.id })
    expect(player.progress).toEqual({ completed: 4, total: 5, percent: 80 })
    expect(player.completion?.lessonsAddedSince).toBe(1)
  })

  it('shows a certificate as revoked once the purchase that gave access is revoked', async () => {
    const course = await smallCourse()
    const user = await learnerOf(course.id)
    const results = await completeAll(await callerAs(db(), user), course)
    const certificateId = results[3]?.certificateId ?? ''
    // Revoking the course's access (a refund) in the access ledger.
    const grants = await db()
      .selectFrom('access_grants')
      .select('id')
      .where('user_id', '=', user.id)
      .where('course_id', '=', course.id)
      .execute()
    for (const { id } of grants) await revoke(db(), { grantId: id }, 'refund')
    const certificate = await (await callerAs(db(), null)).learning.certificate({ id: certificateId })
    expect(certificate.status).toBe('revoked')
    expect(certificate.linkedInUrl).toBeNull()
  })

  it('keeps a certificate of a refunded purchase verified while Premium opens the course, revoked once it does not', async () => {
    const course = await smallCourse()
    await db().updateTable('courses').set({ included_in_premium: true }).where('id', '=', course.id).execute()
    // A Premium member who also bought the course completes it: as its buyer (the purchase comes first).
    const { user } = await premiumMember(db())
    await buyerOfCourse(db(), course.id, user)
    const certificateId = (await completeAll(await callerAs(db(), user), course))[3]?.certificateId ?? ''
    expect(await completionOf(user.id, course.id)).toEqual([
      { lesson_count: 4, access_source: 'purchase', certificate_id: certificateId },
    ])
    const status = async () => (await (await callerAs(db(), null)).learning.certificate({ id: certificateId })).status
    // The purchase is refunded, but the learner still opens the course through Premium: verified (decision 0090).
    const grants = await db()
      .selectFrom('access_grants')
      .select('id')
      .where('user_id', '=', user.id)
      .where('course_id', '=', course.id)
      .execute()
    for (const { id } of grants) await revoke(db(), { grantId: id }, 'refund')
    expect(await status()).toBe('verified')
    // The course leaves Premium: nothing holds it any more, so the refunded purchase's certificate is revoked.
    await db().updateTable('courses').set({ included_in_premium: false }).where('id', '=', course.id).execute()
    expect(await status()).toBe('revoked')
  })

  /** A Premium member (a paid bank-transfer order) who completed the course through Premium, and the certificate. */
  async function premiumCertificate() {
    const course = await smallCourse()
    const { user, orderId } = await premiumMember(db())
    const certificateId = (await completeAll(await callerAs(db(), user), course))[3]?.certificateId ?? ''
    expect(await completionOf(user.id, course.id)).toEqual([
      { lesson_count: 4, access_source: 'premium', certificate_id: certificateId },
    ])
    const status = async () => (await (await callerAs(db(), null)).learning.certificate({ id: certificateId })).status
    expect(await status()).toBe('verified')
    const refundPremium = async () => {
      const admin = await callerAs(db(), await createUser(db(), { role: 'admin' }))
      await admin.admin.orders.refund({ orderId, reference: 'BANK-RET-PREMIUM' })
    }
    return { course, user, certificateId, status, refundPremium }
  }

  it('shows a certificate earned through Premium as revoked once that Premium order is refunded', async () => {
    const { certificateId, refundPremium } = await premiumCertificate()
    await refundPremium()
    const certificate = await (await callerAs(db(), null)).learning.certificate({ id: certificateId })
    expect(certificate.status).toBe('revoked')
    expect(certificate.linkedInUrl).toBeNull()
  })

  it('keeps a Premium certificate verified when the membership ends, or when the learner still holds the course', async () => {
    // The membership ends (lapses): the course was theirs when they completed it.
    const ended = await premiumCertificate()
    await revoke(db(), { subscriptionId: await subscriptionOf(ended.user.id) }, 'lapse')
    expect(await ended.status()).toBe('verified')
    // Refunded, but the learner bought the course: they hold it.
    const buyer = await premiumCertificate()
    await buyerOfCourse(db(), buyer.course.id, buyer.user)
    await buyer.refundPremium()
    expect(await buyer.status()).toBe('verified')
    // Refunded, but another Premium (given by staff) opens the course.
    const member = await premiumCertificate()
    await grant(db(), { userId: member.user.id, right: { kind: 'premium' }, source: { kind: 'staff' } })
    await member.refundPremium()
    expect(await member.status()).toBe('verified')
  })

  it('an unknown certificate id is not found', async () => {
    const visitor = await callerAs(db(), null)
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      await expect(visitor.learning.certificate({ id })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    }
  })

  it('a course without a certificate completes without issuing one', async () => {
    const course = await smallCourse(false)
    const user = await learnerOf(course.id)
    const results = await completeAll(await callerAs(db(), user), course)
    expect(results[3]).toEqual({ completed: true, courseCompleted: true, certificateId: null })
    expect(await completionMails(user.email)).toEqual([
      {
        to_address: user.email,
        subject: `You completed ${course.title}`,
        text_body: [
          `Hi ${user.firstName},`,
          `Congratulations: you completed every lesson of "${course.title}".`,
          'Keep learning: your courses are waiting in your account.',
          'SkillForge',
        ].join('\n\n'),
      },
    ])
  })

  it("the certificate bears the learner's name without stray spaces, else the e-mail; the mail greets by first name", async () => {
    const course = await smallCourse()
    const ada = await createUser(db(), { firstName: 'Ada', lastName: '' })
    await buyerOfCourse(db(), course.id, ada)
    const adaId = (await completeAll(await callerAs(db(), ada), course))[3]?.certificateId ?? ''
    const visitor = await callerAs(db(), null)
    expect((await visitor.learning.certificate({ id: adaId })).learnerName).toBe('Ada')
    expect(await completionMails(ada.email)).toEqual([
      {
        to_address: ada.email,
        subject: `You completed ${course.title}`,
        text_body: [
          'Hi Ada,',
          `Congratulations: you completed every lesson of "${course.title}".`,
          `Your Certificate of Completion: http://localhost:3000/certificates/${adaId}`,
          'SkillForge',
        ].join('\n\n'),
      },
    ])

    // No name at all: the certificate shows the e-mail address, the mail says just "Hi,".
    const nameless = await createUser(db(), { firstName: '', lastName: '' })
    await buyerOfCourse(db(), course.id, nameless)
    const namelessId = (await completeAll(await callerAs(db(), nameless), course))[3]?.certificateId ?? ''
    expect((await visitor.learning.certificate({ id: namelessId })).learnerName).toBe(nameless.email)
    expect(await completionMails(nameless.email)).toEqual([
      {
        to_address: nameless.email,
        subject: `You completed ${course.title}`,
        text_body: [
          'Hi,',
          `Congratulations: you completed every lesson of "${course.title}".`,
          `Your Certificate of Completion: http://localhost:3000/certificates/${namelessId}`,
          'SkillForge',
        ].join('\n\n'),
      },
    ])
  })

  /**
   * A Premium member completes every lesson but the preview while a member, then the membership lapses and they
   * finish the preview lesson (open to anyone): every lesson is complete, the course is not, as they held it then.
   */
  async function everyLessonDoneWhileLapsed() {
    const course = await smallCourse()
    const user = (await premiumMember(db())).user
    const caller = await callerAs(db(), user)
    const notDone = { completed: true, courseCompleted: false, certificateId: null }
    for (const lesson of course.lessons.slice(1)) {
      expect(await caller.learning.setCompleted({ courseId: course.id, lessonId: lesson.id, completed: true })).toEqual(
        notDone,
      )
    }
    const premium = await db()
      .selectFrom('access_grants')
      .select('id')
      .where('user_id', '=', user.id)
      .where('kind', '=', 'premium')
      .executeTakeFirstOrThrow()
    expect(await revoke(db(), { grantId: premium.id }, 'lapse')).toBe(1)
    // Not holding the course, the preview's completion (and a later Mark as complete of it) completes nothing.
    const preview = { courseId: course.id, lessonId: course.lessons[0]?.id ?? '' }
    expect(await caller.learning.setCompleted({ ...preview, completed: true })).toEqual(notDone)
    expect(await caller.learning.setCompleted({ ...preview, completed: true })).toEqual(notDone)
    expect((await caller.learning.course({ courseId: course.id })).progress).toEqual({
      completed: 4,
      total: 4,
      percent: 100,
    })
    expect(await completionOf(user.id, course.id)).toEqual([])
    return { course, user, caller, premiumGrantId: premium.id }
  }

  const subscriptionOf = async (userId: string) =>
    (await db().selectFrom('subscriptions').select('id').where('user_id', '=', userId).executeTakeFirstOrThrow()).id
  const completionOf = (userId: string, courseId: string) =>
    db()
      .selectFrom('course_completions as cc')
      .leftJoin('certificates as c', (join) =>
        join.onRef('c.user_id', '=', 'cc.user_id').onRef('c.course_id', '=', 'cc.course_id'),
      )
      .select(['cc.lesson_count', 'cc.access_source', 'c.id as certificate_id'])
      .where('cc.user_id', '=', userId)
      .where('cc.course_id', '=', courseId)
      .execute()

  it('every lesson done while not holding the course: buying it, the next video save completes it, once', async () => {
    const { course, user, caller } = await everyLessonDoneWhileLapsed()
    await buyerOfCourse(db(), course.id, user)
    // Watching the (already complete) video again, as the course's buyer: the course completes with a certificate.
    const video = { courseId: course.id, lessonId: course.lessons[3]?.id ?? '' }
    const done = await caller.learning.saveProgress({
      ...video,
      positionSeconds: 10,
      ranges: [[0, 10]],
      sentAt: Date.now(),
    })
    const certificateId = done.certificateId ?? ''
    expect(done).toEqual({
      positionSeconds: 10,
      watchedSeconds: 10,
      completed: true,
      courseCompleted: true,
      certificateId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    })
    expect(await completionOf(user.id, course.id)).toEqual([
      { lesson_count: 4, access_source: 'purchase', certificate_id: certificateId },
    ])
    expect((await (await callerAs(db(), null)).learning.certificate({ id: certificateId })).status).toBe('verified')
    // Later saves and a Mark as complete find the course completed: no second completion, certificate or e-mail.
    const again = await caller.learning.saveProgress({ ...video, positionSeconds: 12, ranges: [], sentAt: Date.now() })
    expect(again).toEqual({
      positionSeconds: 12,
      watchedSeconds: 10,
      completed: true,
      courseCompleted: false,
      certificateId: null,
    })
    expect(await caller.learning.setCompleted({ ...video, completed: true })).toEqual({
      completed: true,
      courseCompleted: false,
      certificateId: null,
    })
    expect(await completionOf(user.id, course.id)).toEqual([
      { lesson_count: 4, access_source: 'purchase', certificate_id: certificateId },
    ])
    expect(await completionMails(user.email)).toEqual([
      {
        to_address: user.email,
        subject: `You completed ${course.title}`,
        text_body: [
          `Hi ${user.firstName},`,
          `Congratulations: you completed every lesson of "${course.title}".`,
          `Your Certificate of Completion: http://localhost:3000/certificates/${certificateId}`,
          'SkillForge',
        ].join('\n\n'),
      },
    ])
  })

  it('every lesson done while not holding the course: Premium back, the next Mark as complete completes it, once', async () => {
    const { course, user, caller, premiumGrantId } = await everyLessonDoneWhileLapsed()
    expect(await restore(db(), { grantId: premiumGrantId })).toBe(1)
    const two = { courseId: course.id, lessonId: course.lessons[1]?.id ?? '' }
    const done = await caller.learning.setCompleted({ ...two, completed: true })
    expect(done).toEqual({
      completed: true,
      courseCompleted: true,
      certificateId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    })
    const once = [{ lesson_count: 4, access_source: 'premium', certificate_id: done.certificateId }]
    expect(await completionOf(user.id, course.id)).toEqual(once)
    const notAgain = { completed: true, courseCompleted: false, certificateId: null }
    expect(await caller.learning.setCompleted({ ...two, completed: true })).toEqual(notAgain)
    const preview = { courseId: course.id, lessonId: course.lessons[0]?.id ?? '' }
    expect(await caller.learning.setCompleted({ ...preview, completed: true })).toEqual(notAgain)
    expect(await completionOf(user.id, course.id)).toEqual(once)
    expect(await completionMails(user.email)).toHaveLength(1)
  })

  raceIt('20 concurrent writes complete the course exactly once', async () => {
    const course = await smallCourse()
    const user = await learnerOf(course.id)
    // Twenty callers (twenty sessions) write at once: every lesson several times over, the last ones racing.
    const callers = await Promise.all(Array.from({ length: 20 }, () => callerAs(db(), user)))
    const results = await Promise.all(
      callers.map((caller, i) =>
        caller.learning.setCompleted({
          courseId: course.id,
          lessonId: course.lessons[i % 4]?.id ?? '',
          completed: true,
        }),
      ),
    )
    expect(results.filter((r) => r.courseCompleted)).toHaveLength(1)
    const rows = await db()
      .selectFrom('course_completions')
      .select('user_id')
      .where('course_id', '=', course.id)
      .execute()
    expect(rows).toHaveLength(1)
    const certificates = await db().selectFrom('certificates').select('id').where('course_id', '=', course.id).execute()
    expect(certificates).toHaveLength(1)
    expect(await completionMails(user.email)).toHaveLength(1)
  })

  raceIt('two lessons completed at the same moment still complete the course (no write skew)', async () => {
    for (let round = 0; round < 5; round += 1) {
      const course = await smallCourse()
      const user = await learnerOf(course.id)
      const [a, b] = await Promise.all([callerAs(db(), user), callerAs(db(), user)])
      for (const lesson of course.lessons.slice(0, 2)) {
        await a.learning.setCompleted({ courseId: course.id, lessonId: lesson.id, completed: true })
      }
      const last = await Promise.all([
        a.learning.setCompleted({ courseId: course.id, lessonId: course.lessons[2]?.id ?? '', completed: true }),
        b.learning.setCompleted({ courseId: course.id, lessonId: course.lessons[3]?.id ?? '', completed: true }),
      ])
      expect(last.filter((r) => r.courseCompleted)).toHaveLength(1)
    }
  })
})

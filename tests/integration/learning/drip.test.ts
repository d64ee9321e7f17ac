// Drip schedules (issue 33) over HTTP: a section dripped 7 days after enrolment refuses its lesson's content, its
// video (Range route included) and its progress writes until the clock reaches the date; the curriculum shows the
// date; previews are never dripped; staff never wait; a changed schedule moves the date; the hourly sweep mails the
// learner once, however often it runs.
import { afterEach, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { sweepDripUnlocks } from '../../../src-server/flows/drip-unlocks.ts'
import { advanceClock, now, resetClock } from '../../../src-server/kernel/clock.ts'
import { DRIP_MESSAGES } from '../../../src-shared/schemas/drip.ts'
import { createCreator, createCreatorCourse, lapsePlan } from '../../support/creator-courses.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse } from '../../support/learning.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()
const COURSE = 'modern-react-typescript'
const DAY = 86_400
const URL = 'http://localhost:3000'

afterEach(() => resetClock())

async function cookieOf(user: TestUser) {
  const { token } = await createSessionToken(site.db, user.id)
  return `${SESSION_COOKIE}=${token}`
}
const get = (url: string, headers: Record<string, string> = {}) => fetch(`${site.baseUrl}${url}`, { headers })

/** A section holding a non-preview video lesson (and, when the seed has one there, a preview lesson). */
async function dripTarget() {
  const rows = await site.db
    .selectFrom('lessons')
    .select(['id', 'section_id', 'is_preview', 'kind'])
    .where('course_id', '=', COURSE)
    .where('pending_review', '=', false)
    .execute()
  const video = rows.find((row) => row.kind === 'video' && !row.is_preview)
  if (!video) throw new Error('the seed should give this course a locked video lesson')
  return { sectionId: video.section_id, lessonId: video.id }
}

async function setDrip(sectionId: string, afterDays: number | null, opensAt: string | null = null) {
  const staff = await createUser(site.db, { role: 'editor' })
  await (await callerAs(site.db, staff)).drip.setSection({ courseId: COURSE, sectionId, afterDays, opensAt })
}

const dripMails = (to: string) =>
  site.db
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('kind', '=', 'drip_unlocked')
    .where('to_address', '=', to)
    .execute()

describe('a section dripped 7 days after enrolment', () => {
  it('is refused over HTTP and the API until the date, then opens and is mailed once', async () => {
    const { sectionId, lessonId } = await dripTarget()
    await setDrip(sectionId, 7)
    const { user } = await buyerOfCourse(site.db, COURSE)
    const cookie = await cookieOf(user)
    const learner = await callerAs(site.db, user)

    // Locked: the video file (whole and by range), the lesson's content, progress writes.
    expect((await get(`/api/learn/media/${lessonId}`, { cookie })).status).toBe(403)
    expect((await get(`/api/learn/media/${lessonId}`, { cookie, range: 'bytes=0-9' })).status).toBe(403)
    const closed = await learner.learning.lesson({ courseId: COURSE, lessonId })
    expect(closed.locked).toBe(true)
    expect(closed.content).toBeNull()
    const expected = new Date(now().getTime() + 7 * DAY * 1000)
    expect(Math.abs(new Date(closed.unlocksAt ?? 0).getTime() - expected.getTime())).toBeLessThan(60_000)
    await expect(learner.learning.setCompleted({ courseId: COURSE, lessonId, completed: true })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    // Over tRPC's HTTP transport as well: no body in the answer.
    const trpc = await get(
      `/trpc/learning.lesson?input=${encodeURIComponent(JSON.stringify({ courseId: COURSE, lessonId }))}`,
      { cookie },
    )
    expect(await trpc.text()).not.toContain('"html"')

    // The curriculum shows the section's date on each of its non-preview lessons.
    const player = await learner.learning.course({ courseId: COURSE })
    const section = player.sections.find((s) => s.id === sectionId)
    expect(section?.unlocksAt).toBe(closed.unlocksAt)
    for (const lesson of section?.lessons ?? []) {
      expect(lesson.locked).toBe(!lesson.isPreview)
      expect(lesson.unlocksAt).toBe(lesson.isPreview ? null : closed.unlocksAt)
    }

    // Staff never wait.
    const staff = await createUser(site.db, { role: 'viewer' })
    expect(
      (await get(`/api/learn/media/${lessonId}`, { cookie: await cookieOf(staff), range: 'bytes=0-9' })).status,
    ).toBe(206)

    // (The seed's own learners of the course enrolled earlier: their mails are theirs; this learner's are counted.)
    await sweepDripUnlocks(site.db, URL)
    await advanceClock(6 * DAY)
    await sweepDripUnlocks(site.db, URL)
    expect(await dripMails(user.email)).toHaveLength(0)
    expect((await get(`/api/learn/media/${lessonId}`, { cookie: await cookieOf(user) })).status).toBe(403)

    await advanceClock(DAY + 3600)
    const later = await cookieOf(user)
    expect((await get(`/api/learn/media/${lessonId}`, { cookie: later, range: 'bytes=0-9' })).status).toBe(206)
    const open = await (await callerAs(site.db, user)).learning.lesson({ courseId: COURSE, lessonId })
    expect([open.locked, open.unlocksAt]).toEqual([false, null])

    // The sweep mails once, even when it runs again (or twice at once).
    const [first, again] = await Promise.all([sweepDripUnlocks(site.db, URL), sweepDripUnlocks(site.db, URL)])
    expect(first + again).toBeGreaterThanOrEqual(1)
    expect(await sweepDripUnlocks(site.db, URL)).toBe(0)
    const mails = await dripMails(user.email)
    expect(mails).toHaveLength(1)
    expect(mails[0]?.text_body).toContain(`/learn/${COURSE}`)
    // Nobody got the same section's mail twice.
    const sent = await site.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject'])
      .where('kind', '=', 'drip_unlocked')
      .execute()
    expect(new Set(sent.map((m) => m.to_address)).size).toBe(sent.length)
  })

  it('mails no one who turned course news off, nor their past openings once they turn it on again', async () => {
    const { sectionId } = await dripTarget()
    await setDrip(sectionId, 7)
    const { user: quiet } = await buyerOfCourse(site.db, COURSE)
    const { user: keen } = await buyerOfCourse(site.db, COURSE)
    const quietCaller = await callerAs(site.db, quiet)
    expect(await quietCaller.profile.mailPreferences()).toEqual({ courseUpdates: true, mutedCourseIds: [] })
    expect(await quietCaller.profile.setMailPreferences({ courseUpdates: false })).toMatchObject({
      courseUpdates: false,
    })
    await expect((await callerAs(site.db, null)).profile.mailPreferences()).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    })

    await advanceClock(7 * DAY + 3600)
    await sweepDripUnlocks(site.db, URL)
    expect(await dripMails(quiet.email)).toEqual([])
    const [mail] = await dripMails(keen.email)
    expect(mail?.text_body).toContain(`E-mail preferences: ${URL}/account`)

    // Turned on again: the section that opened meanwhile is not news to mail now.
    await quietCaller.profile.setMailPreferences({ courseUpdates: true })
    await sweepDripUnlocks(site.db, URL)
    expect(await dripMails(quiet.email)).toEqual([])
  })

  it('mails no one who stopped this course’s news, and keeps their other courses’ news', async () => {
    const { sectionId } = await dripTarget()
    await setDrip(sectionId, 7)
    const { user: muted } = await buyerOfCourse(site.db, COURSE)
    const { user: keen } = await buyerOfCourse(site.db, COURSE)
    const mutedCaller = await callerAs(site.db, muted)
    expect(await mutedCaller.profile.setCourseNews({ courseId: COURSE, wanted: false })).toEqual({
      courseUpdates: true,
      mutedCourseIds: [COURSE],
    })
    // Twice changes nothing; a course that does not exist is refused; a visitor is refused.
    await mutedCaller.profile.setCourseNews({ courseId: COURSE, wanted: false })
    await expect(
      mutedCaller.profile.setCourseNews({ courseId: 'no-such-course', wanted: false }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(
      (await callerAs(site.db, null)).profile.setCourseNews({ courseId: COURSE, wanted: false }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' })

    await advanceClock(7 * DAY + 3600)
    await sweepDripUnlocks(site.db, URL)
    expect(await dripMails(muted.email)).toEqual([])
    expect(await dripMails(keen.email)).toHaveLength(1)
    // Taken again: the section that opened meanwhile is not news to mail now (it was claimed unsent).
    expect((await mutedCaller.profile.setCourseNews({ courseId: COURSE, wanted: true })).mutedCourseIds).toEqual([])
    await sweepDripUnlocks(site.db, URL)
    expect(await dripMails(muted.email)).toEqual([])
  })

  it('stops the course’s news in one click from the mail, with no log-in: the mail client’s POST or the page’s button', async () => {
    const { sectionId } = await dripTarget()
    await setDrip(sectionId, 7)
    const { user: oneClick } = await buyerOfCourse(site.db, COURSE)
    const { user: byPage } = await buyerOfCourse(site.db, COURSE)
    await advanceClock(7 * DAY + 3600)
    await sweepDripUnlocks(site.db, URL)
    const linkOf = async (to: string) => {
      const mail = await site.db
        .selectFrom('mail_outbox')
        .select(['text_body', 'list_unsubscribe'])
        .where('kind', '=', 'drip_unlocked')
        .where('to_address', '=', to)
        .executeTakeFirstOrThrow()
      const link = new globalThis.URL(mail.list_unsubscribe ?? '')
      // The footer offers the same link to a person reading the mail.
      expect(mail.text_body).toContain(`Stop e-mails about this course: ${mail.list_unsubscribe}`)
      return { path: `${link.pathname}${link.search}`, token: link.searchParams.get('token') ?? '' }
    }
    /** Whether this course's news still comes to the person, and whether their courses' news does at all. */
    const newsOf = async (user: TestUser) => {
      const { courseUpdates, mutedCourseIds } = await (await callerAs(site.db, user)).profile.mailPreferences()
      return { thisCourse: !mutedCourseIds.includes(COURSE), all: courseUpdates }
    }

    // RFC 8058: the mail provider posts the form with no cookie and no Origin; again changes nothing.
    const first = await linkOf(oneClick.email)
    expect(first.path).toMatch(/^\/api\/mail\/unsubscribe\?token=[a-z2-7]{40}$/)
    const post = () =>
      fetch(`${site.baseUrl}${first.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      })
    const posted = await post()
    expect(posted.status).toBe(200)
    expect(await posted.text()).toContain('You will no longer get this course’s news by e-mail.')
    expect(await newsOf(oneClick)).toEqual({ thisCourse: false, all: true })
    expect((await post()).status).toBe(200)
    expect(await newsOf(byPage)).toEqual({ thisCourse: true, all: true })

    // A person following the link lands on the course news page, whose button asks the same.
    const second = await linkOf(byPage.email)
    expect(second.token).not.toBe(first.token)
    const followed = await fetch(`${site.baseUrl}${second.path}`, { redirect: 'manual' })
    expect(followed.status).toBe(303)
    expect(followed.headers.get('location')).toBe(`/mail/unsubscribe?list=course_news&token=${second.token}`)
    const visitor = await callerAs(site.db, null)
    expect((await visitor.profile.stopCourseMail({ token: second.token })).message).toContain('no longer')
    expect(await newsOf(byPage)).toEqual({ thisCourse: false, all: true })
    // A cart reminder's token is not a course news link, and a guessed one stops nothing.
    await expect(visitor.profile.stopCourseMail({ token: 'c'.repeat(40) })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('moves pending unlocks when the schedule changes, takes the later of days and date, and can be removed', async () => {
    const { sectionId, lessonId } = await dripTarget()
    await setDrip(sectionId, 10)
    const { user } = await buyerOfCourse(site.db, COURSE)
    const learner = await callerAs(site.db, user)
    const at = async () => (await learner.learning.lesson({ courseId: COURSE, lessonId })).unlocksAt
    const inDays = (days: number) => now().getTime() + days * DAY * 1000
    expect(Math.abs(new Date((await at()) ?? 0).getTime() - inDays(10))).toBeLessThan(60_000)

    await setDrip(sectionId, 2)
    expect(Math.abs(new Date((await at()) ?? 0).getTime() - inDays(2))).toBeLessThan(60_000)

    const date = new Date(inDays(20)).toISOString()
    await setDrip(sectionId, 2, date)
    expect(await at()).toBe(date)

    await setDrip(sectionId, null, null)
    expect(await at()).toBeNull()
    expect((await learner.learning.lesson({ courseId: COURSE, lessonId })).locked).toBe(false)
  })

  it('lets only the course editors and staff editors set a schedule; customers are refused', async () => {
    const { sectionId } = await dripTarget()
    const customer = await callerAs(site.db, await createUser(site.db))
    await expect(
      customer.drip.setSection({ courseId: COURSE, sectionId, afterDays: 3, opensAt: null }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(customer.drip.schedule({ courseId: COURSE })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const viewer = await callerAs(site.db, await createUser(site.db, { role: 'viewer' }))
    await expect(
      viewer.drip.setSection({ courseId: COURSE, sectionId, afterDays: 3, opensAt: null }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await viewer.drip.schedule({ courseId: COURSE })).toMatchObject({ sections: [], planNeeded: null })
  })
})

describe('drip content comes with the course owner’s Pro or Enterprise plan, as /pricing sells it', () => {
  const setWeek = (
    caller: Awaited<ReturnType<typeof callerAs>>,
    courseId: string,
    sectionId: string,
    days: number | null,
  ) => caller.drip.setSection({ courseId, sectionId, afterDays: days, opensAt: null })

  it('a creator on Basic or with no plan is told so and refused; a schedule set before may still be cleared', async () => {
    for (const plan of ['basic', null] as const) {
      const creator = await createCreator(site.db, { plan })
      const course = await createCreatorCourse(site.db, creator)
      const caller = await callerAs(site.db, creator)
      expect(await caller.drip.schedule({ courseId: course.id })).toEqual({
        sections: [],
        planNeeded: DRIP_MESSAGES.planNeeded,
      })
      await expect(setWeek(caller, course.id, course.sectionId, 7)).rejects.toMatchObject({
        code: 'PRECONDITION_FAILED',
        message: DRIP_MESSAGES.planNeeded,
      })
      expect((await caller.drip.schedule({ courseId: course.id })).sections).toEqual([])

      // Staff may drip any course; its creator, on no plan that includes it, may only open the section at once.
      await setWeek(
        await callerAs(site.db, await createUser(site.db, { role: 'editor' })),
        course.id,
        course.sectionId,
        7,
      )
      expect((await caller.drip.schedule({ courseId: course.id })).sections).toMatchObject([{ afterDays: 7 }])
      expect(await setWeek(caller, course.id, course.sectionId, null)).toEqual({
        sections: [],
        planNeeded: DRIP_MESSAGES.planNeeded,
      })
    }
  })

  it('a Pro owner and the course’s co-instructor set it; once the owner’s plan lapses, they are refused', async () => {
    const owner = await createCreator(site.db, { plan: 'pro' })
    const course = await createCreatorCourse(site.db, owner)
    const co = await createCreator(site.db, { plan: null })
    await site.db
      .insertInto('course_instructors')
      .values({ course_id: course.id, user_id: co.id, role: 'co' })
      .execute()
    const [ownerCaller, coCaller] = await Promise.all([callerAs(site.db, owner), callerAs(site.db, co)])

    expect(await setWeek(ownerCaller, course.id, course.sectionId, 7)).toMatchObject({
      sections: [{ sectionId: course.sectionId, afterDays: 7 }],
      planNeeded: null,
    })
    expect(await setWeek(coCaller, course.id, course.sectionId, 3)).toMatchObject({
      sections: [{ afterDays: 3 }],
      planNeeded: null,
    })

    await lapsePlan(site.db, owner.id)
    await expect(setWeek(coCaller, course.id, course.sectionId, 5)).rejects.toMatchObject({
      message: DRIP_MESSAGES.planNeeded,
    })
    await expect(setWeek(ownerCaller, course.id, course.sectionId, 5)).rejects.toMatchObject({
      message: DRIP_MESSAGES.planNeeded,
    })
    expect((await ownerCaller.drip.schedule({ courseId: course.id })).sections).toMatchObject([{ afterDays: 3 }])
  })
})

describe('the questions of a dripped lesson', () => {
  it('are neither listed nor asked before the lesson opens, and are after', async () => {
    const { sectionId, lessonId } = await dripTarget()
    await setDrip(sectionId, 7)
    const { user } = await buyerOfCourse(site.db, COURSE)
    const learner = await callerAs(site.db, user)
    const ask = { courseId: COURSE, lessonId, title: 'Before it opens', body: 'Can I see this?' }
    await expect(learner.questions.list({ courseId: COURSE, lessonId })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(learner.questions.ask(ask)).rejects.toMatchObject({ code: 'FORBIDDEN' })

    await advanceClock(7 * DAY + 60)
    const { id } = await learner.questions.ask(ask)
    const page = await learner.questions.list({ courseId: COURSE, lessonId })
    expect(page.items.map((item) => item.id)).toContain(id)
  })
})

describe('the questions of a dripped lesson, read from the course', () => {
  it('are left out of the course-wide list and search, and their answers refused, until the lesson opens', async () => {
    const { sectionId, lessonId } = await dripTarget()
    await setDrip(sectionId, 7)
    // Staff never wait: a question (and an answer) already stands under the dripped lesson.
    const staff = await callerAs(site.db, await createUser(site.db, { role: 'editor' }))
    const title = 'Dripped lesson question'
    const { id } = await staff.questions.ask({ courseId: COURSE, lessonId, title, body: 'Under the dripped lesson' })
    await staff.questions.answer({ questionId: id, body: 'The answer gives the lesson away' })
    const { user } = await buyerOfCourse(site.db, COURSE)
    const learner = await callerAs(site.db, user)

    const whole = await learner.questions.list({ courseId: COURSE })
    expect(whole.items.map((item) => item.id)).not.toContain(id)
    const search = await learner.questions.list({ courseId: COURSE, search: 'Dripped lesson' })
    expect(search.items.map((item) => item.id)).not.toContain(id)
    await expect(learner.questions.answers({ questionId: id })).rejects.toMatchObject({ code: 'FORBIDDEN' })

    await advanceClock(7 * DAY + 60)
    expect((await learner.questions.list({ courseId: COURSE })).items.map((item) => item.id)).toContain(id)
    expect(await learner.questions.answers({ questionId: id })).toHaveLength(1)
  })
})

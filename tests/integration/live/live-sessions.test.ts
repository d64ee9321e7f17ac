// Live sessions (issue 34): who sees which sessions, who schedules them; seats, the waitlist and its promotion; the
// .ics invitation (right UTC start in its zone, SEQUENCE raised and an update mailed on reschedule, CANCEL); the join
// link only through /live/<id>/join in its window, recording attendance; the reminder an hour before, sent once.
// Decision 0142: a course's sessions ahead for whoever may attend (live.upcoming), announced once to its holders; the
// waitlist told of a move or a cancellation; the host's cancellation said as theirs; seats never cut under those taken;
// the studio's courses on sale first, and its sessions no learner can see said so.
import ICAL from 'ical.js'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { revoke } from '../../../src-server/access/ledger.ts'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { removeCoInstructor } from '../../../src-server/creators/course-instructors.ts'
import { addCourseOwner } from '../../../src-server/creators/course-team.ts'
import { announceLiveSessions, LIVE_MESSAGES, sendLiveReminders } from '../../../src-server/flows/live-sessions.ts'
import { advanceClock, now, resetClock } from '../../../src-server/kernel/clock.ts'
import { utcToLocalInput } from '../../../src-server/live/zoned-time.ts'
import { callerAs, createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { buyerOfCourse, premiumMember } from '../../support/learning.ts'
import { developmentCategory, studioCourseOf } from '../../support/studio.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()
const COURSE = 'modern-react-typescript'
const OTHER = 'nodejs-api-development'
let instructor: TestUser
let buyer: TestUser
let premium: TestUser
let stranger: TestUser
let editor: TestUser

afterEach(() => resetClock())

beforeAll(async () => {
  buyer = (await buyerOfCourse(site.db, COURSE)).user
  premium = (await premiumMember(site.db)).user
  stranger = await createUser(site.db, { firstName: 'Stan' })
  editor = await createUser(site.db, { role: 'editor', firstName: 'Edna' })
  instructor = await createUser(site.db, { firstName: 'Ina', lastName: 'Structor' })
  await site.db
    .insertInto('course_instructors')
    .values({ course_id: COURSE, user_id: instructor.id, role: 'co' })
    .execute()
})

const as = (user: TestUser | null) => callerAs(site.db, user)
const mails = (to: string, kind: string) =>
  site.db
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body', 'calendar_ics', 'calendar_method'])
    .where('to_address', '=', to)
    .where('kind', '=', kind)
    .orderBy('created_at')
    .execute()

/** A start `days` ahead at 18:00 in Europe/Paris, as the form sends it. */
function parisStart(days: number, hour = 18) {
  const day = new Date(now().getTime() + days * 86_400_000)
  return `${day.toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00`
}

async function schedule(by: TestUser, options: { courseId?: string; capacity?: number; localStart?: string } = {}) {
  return (await as(by)).live.schedule({
    courseId: options.courseId,
    title: 'Office hours',
    description: 'Bring your questions',
    localStart: options.localStart ?? parisStart(10),
    timeZone: 'Europe/Paris',
    durationMinutes: 60,
    capacity: options.capacity ?? 50,
    joinUrl: 'https://meet.example.com/abc-defg',
  })
}

/** Moves the clock to `minutes` before the session starts (negative: after). */
async function clockToMinutesBefore(sessionId: string, minutes: number) {
  const session = await site.db
    .selectFrom('live_sessions')
    .select('starts_at')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow()
  await advanceClock((session.starts_at.getTime() - now().getTime() - minutes * 60_000) / 1000)
}

function parse(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics))
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone)
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent') as ICAL.Component)
  return { method: calendar.getFirstPropertyValue('method'), event }
}

describe('scheduling and seeing', () => {
  it('instructors schedule for their course; staff for all Premium members; others are refused', async () => {
    const { id } = await schedule(instructor, { courseId: COURSE })
    expect(id).toBeTruthy()
    await expect(schedule(instructor, { courseId: OTHER })).rejects.toThrow(/instructors and staff/)
    await expect(schedule(instructor)).rejects.toThrow(/Only staff/)
    await expect(schedule(buyer, { courseId: COURSE })).rejects.toThrow(/instructors and staff/)
    const wide = await schedule(editor)
    expect(wide.id).toBeTruthy()
    await expect(
      (await as(instructor)).live.schedule({
        courseId: COURSE,
        title: 'x',
        description: '',
        localStart: parisStart(3),
        timeZone: 'Europe/Paris',
        durationMinutes: 60,
        capacity: 5,
        joinUrl: 'http://meet.example.com/insecure',
      }),
    ).rejects.toThrow(/https/)
  })

  it('Premium sees every session, a buyer their course’s, a stranger none; the join link is shown to no member', async () => {
    const course = await schedule(instructor, { courseId: COURSE })
    const wide = await schedule(editor)
    const other = await schedule(editor, { courseId: OTHER })
    const ids = async (user: TestUser) => (await (await as(user)).live.list()).upcoming.map((s) => s.id)
    expect(await ids(premium)).toEqual(expect.arrayContaining([course.id, wide.id, other.id]))
    const buyers = await ids(buyer)
    expect(buyers).toContain(course.id)
    expect(buyers).not.toContain(wide.id)
    expect(buyers).not.toContain(other.id)
    expect(await ids(stranger)).toEqual([])
    const page = await (await as(premium)).live.list()
    expect(JSON.stringify(page)).not.toContain('meet.example.com')
    await expect((await as(stranger)).live.register({ sessionId: course.id })).rejects.toThrow(/not found/)
    await expect((await as(buyer)).live.register({ sessionId: wide.id })).rejects.toThrow(/not found/)
    await expect((await as(buyer)).live.attendance({ sessionId: course.id })).rejects.toThrow(/not found/)
  })
})

describe('a host who left the course’s team', () => {
  it('no longer manages the session, reads its attendance or sees its join link', async () => {
    const former = await createUser(site.db, { firstName: 'Fred' })
    await site.db
      .insertInto('course_instructors')
      .values({ course_id: COURSE, user_id: former.id, role: 'co' })
      .execute()
    const { id } = await schedule(former, { courseId: COURSE })
    await (await as(buyer)).live.register({ sessionId: id })
    expect((await (await as(former)).live.attendance({ sessionId: id })).map((a) => a.email)).toEqual([])
    await removeCoInstructor(site.db, COURSE, former.id)

    const gone = await as(former)
    await expect(gone.live.attendance({ sessionId: id })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(gone.live.lessons({ sessionId: id })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(gone.live.cancelSession({ sessionId: id })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(
      gone.live.update({
        sessionId: id,
        title: 'Moved by someone gone',
        description: '',
        localStart: parisStart(12),
        timeZone: 'Europe/Paris',
        durationMinutes: 60,
        capacity: 50,
        joinUrl: 'https://evil.example.com/phish',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const studio = await gone.live.studio()
    expect(studio.sessions.map((s) => s.id)).not.toContain(id)
    expect(JSON.stringify(studio)).not.toContain('meet.example.com')
    // The course's remaining instructors still manage it.
    expect(await (await as(instructor)).live.attendance({ sessionId: id })).toEqual([])
  })
})

describe('seats and the waitlist', () => {
  it('fills to capacity, waitlists the next, and seats them when someone cancels (with their invitation)', async () => {
    const { id } = await schedule(instructor, { courseId: COURSE, capacity: 1 })
    expect((await (await as(buyer)).live.register({ sessionId: id })).status).toBe('registered')
    expect((await (await as(premium)).live.register({ sessionId: id })).status).toBe('waitlisted')
    expect(await mails(premium.email, 'live_waitlisted')).toHaveLength(1)
    const seen = (await (await as(premium)).live.list()).upcoming.find((s) => s.id === id)
    expect(seen).toMatchObject({ seatsLeft: 0, waitlisted: 1, myStatus: 'waitlisted' })

    await (await as(buyer)).live.cancel({ sessionId: id })
    const cancel = (await mails(buyer.email, 'live_cancel')).at(-1)
    expect(cancel?.calendar_method).toBe('CANCEL')
    expect(parse(cancel?.calendar_ics ?? '').method).toBe('CANCEL')
    const after = (await (await as(premium)).live.list()).upcoming.find((s) => s.id === id)
    expect(after?.myStatus).toBe('registered')
    const invitation = (await mails(premium.email, 'live_invitation')).at(-1)
    expect(invitation?.calendar_method).toBe('REQUEST')
  })

  it('a full session frees the seat of a holder whose hold on the course ended, for the next to register', async () => {
    const gone = await createUser(site.db, { firstName: 'Gail' })
    const { orderId } = await buyerOfCourse(site.db, COURSE, gone)
    const { id } = await schedule(instructor, { courseId: COURSE, capacity: 1 })
    expect((await (await as(gone)).live.register({ sessionId: id })).status).toBe('registered')
    await revoke(site.db, { orderId }, 'refund')

    // The session no longer shows on their /live, so they cannot give the seat up: it is freed for the next one.
    expect((await (await as(premium)).live.register({ sessionId: id })).status).toBe('registered')
    const cancel = (await mails(gone.email, 'live_cancel')).at(-1)
    expect(cancel?.calendar_method).toBe('CANCEL')
    expect(cancel?.text_body).toContain('is cancelled because your access to “')
    const seen = (await (await as(premium)).live.list()).upcoming.find((s) => s.id === id)
    expect(seen).toMatchObject({ seatsLeft: 0, waitlisted: 0, myStatus: 'registered' })
  })

  it('a seat freed because Premium ended says so in its cancellation', async () => {
    const { user: lapsed } = await premiumMember(site.db)
    const { id } = await schedule(editor, { capacity: 1, localStart: parisStart(60) })
    expect((await (await as(lapsed)).live.register({ sessionId: id })).status).toBe('registered')
    // The month paid for runs out, not renewed; the next Premium member takes the seat.
    await advanceClock(45 * 86_400)
    const { user: next } = await premiumMember(site.db)
    expect((await (await as(next)).live.register({ sessionId: id })).status).toBe('registered')
    const cancel = (await mails(lapsed.email, 'live_cancel')).at(-1)
    expect(cancel?.subject).toBe('Cancelled: Office hours')
    expect(cancel?.text_body).toContain('Your seat at the live session “Office hours”')
    expect(cancel?.text_body).toContain('is cancelled because your Premium membership ended.')
  })
})

describe('the invitation', () => {
  it('carries the start in Europe/Paris with its VTIMEZONE (right UTC); a reschedule raises SEQUENCE and mails the update', async () => {
    const member = await createUser(site.db, { firstName: 'Ivy' })
    await buyerOfCourse(site.db, COURSE, member)
    const localStart = parisStart(20, 18)
    const { id } = await schedule(instructor, { courseId: COURSE, localStart })
    await (await as(member)).live.register({ sessionId: id })
    const [first] = await mails(member.email, 'live_invitation')
    const parsed = parse(first?.calendar_ics ?? '')
    expect(parsed.method).toBe('REQUEST')
    expect(first?.calendar_ics).toContain('DTSTART;TZID=Europe/Paris:')
    expect(first?.calendar_ics).toContain('BEGIN:VTIMEZONE')
    const utc = parsed.event.startDate.toJSDate()
    expect(utcToLocalInput(utc, 'Europe/Paris')).toBe(localStart)
    // Paris is UTC+1 or +2: the UTC hour is 16 or 17.
    expect([16, 17]).toContain(utc.getUTCHours())
    expect(parsed.event.sequence).toBe(0)

    const moved = parisStart(21, 19)
    const teacher = await as(instructor)
    const studio = await teacher.live.studio()
    const mine = studio.sessions.find((s) => s.id === id)
    await teacher.live.update({
      sessionId: id,
      title: mine?.title ?? '',
      description: mine?.description ?? '',
      localStart: moved,
      timeZone: 'Europe/Paris',
      durationMinutes: 90,
      capacity: 50,
      joinUrl: 'https://meet.example.com/abc-defg',
    })
    const updates = await mails(member.email, 'live_update')
    expect(updates).toHaveLength(1)
    const update = parse(updates[0]?.calendar_ics ?? '')
    expect(update.event.sequence).toBe(1)
    expect(update.event.uid).toBe(parsed.event.uid)
    expect(utcToLocalInput(update.event.startDate.toJSDate(), 'Europe/Paris')).toBe(moved)
    expect(update.event.duration.toSeconds()).toBe(90 * 60)
  })
})

describe('joining, attendance and the reminder', () => {
  it('the join link opens 15 minutes before, records attendance for the host; the reminder goes once', async () => {
    const member = await createUser(site.db, { firstName: 'Jo' })
    await buyerOfCourse(site.db, COURSE, member)
    const { id } = await schedule(instructor, { courseId: COURSE, localStart: parisStart(2) })
    await (await as(member)).live.register({ sessionId: id })
    expect(await sendLiveReminders(site.db, 'http://localhost:3000')).toBe(0)
    await clockToMinutesBefore(id, 61)
    await sendLiveReminders(site.db, 'http://localhost:3000')
    expect(await mails(member.email, 'live_reminder')).toHaveLength(0)
    await advanceClock(2 * 60)
    await sendLiveReminders(site.db, 'http://localhost:3000')
    await sendLiveReminders(site.db, 'http://localhost:3000')
    expect(await mails(member.email, 'live_reminder')).toHaveLength(1)

    const { joinSession } = await import('../../../src-server/flows/live-sessions.ts')
    const actor = { id: member.id, role: member.role, staff: true }
    expect((await joinSession(site.db, actor, id)).refused).toMatch(/15 minutes/)
    const page = (await (await as(member)).live.list()).upcoming.find((s) => s.id === id)
    expect(page?.joinPath).toBeNull()
    await clockToMinutesBefore(id, 10)
    expect((await (await as(member)).live.list()).upcoming.find((s) => s.id === id)?.joinPath).toBe(`/live/${id}/join`)
    expect((await joinSession(site.db, actor, id)).url).toBe('https://meet.example.com/abc-defg')
    const strangerJoin = await joinSession(site.db, { id: stranger.id, role: 'customer', staff: true }, id)
    // A stranger (neither Premium nor the course) is told what an id naming no session tells (decision 0114).
    expect(strangerJoin.refused).toBe(LIVE_MESSAGES.notFound)
    const attendance = await (await as(instructor)).live.attendance({ sessionId: id })
    expect(attendance.map((a) => a.email)).toEqual([member.email])

    await clockToMinutesBefore(id, -120)
    const teacher = await as(instructor)
    await teacher.live.recording({ sessionId: id, url: 'https://video.example.com/rec/1' })
    const past = (await (await as(member)).live.list()).past.find((s) => s.id === id)
    expect(past?.recording?.url).toBe('https://video.example.com/rec/1')
  })

  it('the join route tells someone who cannot see a session what it tells for an id naming none (decision 0114)', async () => {
    const { id } = await schedule(instructor, { courseId: COURSE, localStart: parisStart(2) })
    const joinAs = async (user: TestUser, sessionId: string) => {
      const { token } = await createSessionToken(site.db, user.id)
      const response = await fetch(`${site.baseUrl}/live/${sessionId}/join`, {
        headers: { cookie: `${SESSION_COOKIE}=${token}` },
        redirect: 'manual',
      })
      return response.headers.get('location')
    }
    const missing = '00000000-0000-4000-8000-000000000000'
    expect(await joinAs(stranger, missing)).toBe('/live?join=not-found')
    // Before, under way and after: the stranger learns neither that it exists nor when it ends.
    expect(await joinAs(stranger, id)).toBe('/live?join=not-found')
    await clockToMinutesBefore(id, -120)
    expect(await joinAs(stranger, id)).toBe('/live?join=not-found')
    // Someone shown the session is still told why: it has ended; before it, a Premium member without a seat is told
    // to register.
    expect(await joinAs(premium, id)).toBe('/live?join=ended')
    resetClock()
    expect(await joinAs(premium, id)).toBe('/live?join=no-seat')
  })

  it('a member whose hold on the course ended keeps no way in through the join link', async () => {
    const member = await createUser(site.db, { firstName: 'Reba' })
    const { orderId } = await buyerOfCourse(site.db, COURSE, member)
    const { id } = await schedule(instructor, { courseId: COURSE, localStart: parisStart(2) })
    await (await as(member)).live.register({ sessionId: id })
    await revoke(site.db, { orderId }, 'refund')
    await clockToMinutesBefore(id, 5)
    // The seat is still in the table, but the session is no longer theirs to see or join.
    expect((await (await as(member)).live.list()).upcoming.map((s) => s.id)).not.toContain(id)
    const { token } = await createSessionToken(site.db, member.id)
    const response = await fetch(`${site.baseUrl}/live/${id}/join`, {
      headers: { cookie: `${SESSION_COOKIE}=${token}` },
      redirect: 'manual',
    })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/live?join=no-access')
    expect(await (await as(instructor)).live.attendance({ sessionId: id })).toEqual([])
  })

  it('a seat holder whose hold on the course ended is not reminded; one who holds it is', async () => {
    const gone = await createUser(site.db, { firstName: 'Gus' })
    const kept = await createUser(site.db, { firstName: 'Kay' })
    const { orderId } = await buyerOfCourse(site.db, COURSE, gone)
    await buyerOfCourse(site.db, COURSE, kept)
    const { id } = await schedule(instructor, { courseId: COURSE, localStart: parisStart(3) })
    await (await as(gone)).live.register({ sessionId: id })
    await (await as(kept)).live.register({ sessionId: id })
    await revoke(site.db, { orderId }, 'refund')
    await clockToMinutesBefore(id, 30)
    await sendLiveReminders(site.db, 'http://localhost:3000')
    expect(await mails(kept.email, 'live_reminder')).toHaveLength(1)
    expect(await mails(gone.email, 'live_reminder')).toHaveLength(0)
    // Their seat is given up (their calendar told), so the waitlist's first would take it.
    expect((await mails(gone.email, 'live_cancel')).at(-1)?.calendar_method).toBe('CANCEL')
    const seat = await site.db
      .selectFrom('live_registrations')
      .select('status')
      .where('session_id', '=', id)
      .where('user_id', '=', gone.id)
      .executeTakeFirstOrThrow()
    expect(seat.status).toBe('cancelled')
  })

  it('a rescheduled session reminds again for its new start', async () => {
    const member = await createUser(site.db, { firstName: 'Rex' })
    await buyerOfCourse(site.db, COURSE, member)
    const { id } = await schedule(instructor, { courseId: COURSE, localStart: parisStart(1, 12) })
    await (await as(member)).live.register({ sessionId: id })
    await clockToMinutesBefore(id, 30)
    await sendLiveReminders(site.db, 'http://localhost:3000')
    expect(await mails(member.email, 'live_reminder')).toHaveLength(1)
    await (await as(instructor)).live.update({
      sessionId: id,
      title: 'Office hours',
      description: '',
      localStart: parisStart(3, 12),
      timeZone: 'Europe/Paris',
      durationMinutes: 60,
      capacity: 50,
      joinUrl: 'https://meet.example.com/abc-defg',
    })
    await clockToMinutesBefore(id, 30)
    await sendLiveReminders(site.db, 'http://localhost:3000')
    expect(await mails(member.email, 'live_reminder')).toHaveLength(2)
  })
})

describe('a session under way', () => {
  it('keeps its start while the host fixes the link or lengthens it; a new start must be ahead; ended, it stays put', async () => {
    const member = await createUser(site.db, { firstName: 'Una' })
    await buyerOfCourse(site.db, COURSE, member)
    const localStart = parisStart(2)
    const { id } = await schedule(instructor, { courseId: COURSE, localStart })
    await (await as(member)).live.register({ sessionId: id })
    await clockToMinutesBefore(id, -10)
    const teacher = await as(instructor)
    const edit = (changes: { localStart?: string; durationMinutes?: number; joinUrl?: string }) =>
      teacher.live.update({
        sessionId: id,
        title: 'Office hours',
        description: 'Bring your questions',
        localStart,
        timeZone: 'Europe/Paris',
        durationMinutes: 60,
        capacity: 50,
        joinUrl: 'https://meet.example.com/abc-defg',
        ...changes,
      })

    // Ten minutes in, the studio still offers the edit: the same start with a fixed link is saved, no update mailed.
    const mine = (await teacher.live.studio()).sessions.find((s) => s.id === id)
    expect(mine).toMatchObject({ past: false, cancelled: false, localStart })
    expect(await edit({ joinUrl: 'https://meet.example.com/fixed-link' })).toEqual({ moved: false, promoted: 0 })
    const { joinSession } = await import('../../../src-server/flows/live-sessions.ts')
    const actor = { id: member.id, role: member.role, staff: true }
    expect((await joinSession(site.db, actor, id)).url).toBe('https://meet.example.com/fixed-link')

    // Running over: the longer session is mailed as an update (same start, new end).
    expect(await edit({ joinUrl: 'https://meet.example.com/fixed-link', durationMinutes: 120 })).toMatchObject({
      moved: true,
    })
    const update = parse((await mails(member.email, 'live_update')).at(-1)?.calendar_ics ?? '')
    expect(utcToLocalInput(update.event.startDate.toJSDate(), 'Europe/Paris')).toBe(localStart)
    expect(update.event.duration.toSeconds()).toBe(120 * 60)
    await clockToMinutesBefore(id, -90)
    expect((await joinSession(site.db, actor, id)).url).toBe('https://meet.example.com/fixed-link')

    // A changed start is still checked: not earlier than now.
    await expect(edit({ localStart: parisStart(-1), durationMinutes: 120 })).rejects.toThrow(/start in the future/)

    // Ended: the studio lists it as past, and it is no longer edited (not even moved ahead).
    await clockToMinutesBefore(id, -121)
    expect((await teacher.live.studio()).sessions.find((s) => s.id === id)?.past).toBe(true)
    await expect(edit({ durationMinutes: 120 })).rejects.toMatchObject({ code: 'CONFLICT', message: /has ended/ })
    await expect(edit({ localStart: parisStart(5) })).rejects.toThrow(/has ended/)
    // Scheduling still asks for a start ahead.
    await expect(schedule(instructor, { courseId: COURSE, localStart: parisStart(-1) })).rejects.toThrow(
      /start in the future/,
    )
  })
})

describe('a course never on sale', () => {
  it('its sessions are its instructors’ and staff’s: Premium members and grant holders neither see, register nor join', async () => {
    const creator = await createUser(site.db, { firstName: 'Sally', lastName: 'Secret' })
    const secret = await studioCourseOf(site.db, creator.id)
    await site.db
      .updateTable('courses')
      .set({ title: 'Secret unreleased course', status: 'draft' })
      .where('id', '=', secret)
      .execute()
    const { id } = await schedule(creator, { courseId: secret, localStart: parisStart(2) })
    const byStaff = await schedule(editor, { courseId: secret, localStart: parisStart(3) })
    const member = (await premiumMember(site.db)).user
    const granted = await createUser(site.db, { firstName: 'Grace' })
    await site.db
      .insertInto('access_grants')
      .values({ user_id: granted.id, kind: 'course', course_id: secret, source: 'staff', starts_at: now() })
      .execute()
    const ids = async (user: TestUser) => (await (await as(user)).live.list()).upcoming.map((s) => s.id)

    for (const status of ['draft', 'in_review', 'changes_requested'] as const) {
      await site.db.updateTable('courses').set({ status }).where('id', '=', secret).execute()
      for (const outsider of [member, granted]) {
        const page = await (await as(outsider)).live.list()
        expect(
          page.upcoming.map((s) => s.id),
          status,
        ).not.toContain(id)
        expect(
          page.upcoming.map((s) => s.id),
          status,
        ).not.toContain(byStaff.id)
        expect(JSON.stringify(page)).not.toContain('Secret unreleased course')
        await expect((await as(outsider)).live.register({ sessionId: id }), status).rejects.toMatchObject({
          code: 'NOT_FOUND',
        })
      }
      // Its instructor and staff see both sessions.
      expect(await ids(creator)).toEqual(expect.arrayContaining([id, byStaff.id]))
      expect(await ids(editor)).toEqual(expect.arrayContaining([id, byStaff.id]))
    }
    expect(await mails(member.email, 'live_invitation')).toEqual([])

    // A seat taken before (or written in) gives no way in: the join route refuses it.
    await site.db
      .insertInto('live_registrations')
      .values({ session_id: id, user_id: member.id, status: 'registered', requested_at: now() })
      .execute()
    await clockToMinutesBefore(id, 5)
    const { token } = await createSessionToken(site.db, member.id)
    const response = await fetch(`${site.baseUrl}/live/${id}/join`, {
      headers: { cookie: `${SESSION_COOKIE}=${token}` },
      redirect: 'manual',
    })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/live?join=no-access')
    expect(await (await as(creator)).live.attendance({ sessionId: id })).toEqual([])

    // Put on sale, the course's sessions show to Premium like any other course's.
    await site.db.updateTable('courses').set({ status: 'published' }).where('id', '=', secret).execute()
    expect(await ids(member)).toContain(id)
    expect(await ids(granted)).toContain(id)
  })
})

describe('finding a course’s sessions (decision 0142)', () => {
  it('live.upcoming lists a course’s sessions ahead to those who may attend, with their seat; none to others', async () => {
    const { id } = await schedule(instructor, { courseId: COURSE, localStart: parisStart(5) })
    const cancelled = await schedule(instructor, { courseId: COURSE, localStart: parisStart(6) })
    await (await as(instructor)).live.cancelSession({ sessionId: cancelled.id })
    const wide = await schedule(editor, { localStart: parisStart(5) })
    const other = await schedule(editor, { courseId: OTHER, localStart: parisStart(5) })
    await (await as(buyer)).live.register({ sessionId: id })

    const course = await (await as(buyer)).live.upcoming({ courseId: COURSE })
    expect(course.find((s) => s.id === id)).toMatchObject({ courseId: COURSE, myStatus: 'registered' })
    expect(course.map((s) => s.id)).not.toContain(cancelled.id)
    expect(new Set(course.map((s) => s.courseId))).toEqual(new Set([COURSE]))
    expect(JSON.stringify(course)).not.toContain('meet.example.com')
    // My courses asks for every course at once: theirs only, no session for all Premium members.
    const every = (await (await as(buyer)).live.upcoming({})).map((s) => s.id)
    expect(every).toContain(id)
    expect(every).not.toContain(wide.id)
    expect(every).not.toContain(other.id)
    // Premium members see any course's; someone holding neither sees none.
    expect((await (await as(premium)).live.upcoming({ courseId: OTHER })).map((s) => s.id)).toContain(other.id)
    expect(await (await as(stranger)).live.upcoming({ courseId: COURSE })).toEqual([])
  })

  it('announces a session once to the course’s holders, not to those who registered, nor to Premium members', async () => {
    // The sessions of the tests above were announced long ago, as far as this one is concerned.
    await site.db.updateTable('live_sessions').set({ announced_at: now() }).where('announced_at', 'is', null).execute()
    const holder = await createUser(site.db, { firstName: 'Hal' })
    const early = await createUser(site.db, { firstName: 'Ely' })
    const quiet = await createUser(site.db, { firstName: 'Quin' })
    const muted = await createUser(site.db, { firstName: 'Mo' })
    await buyerOfCourse(site.db, COURSE, muted)
    await buyerOfCourse(site.db, COURSE, holder)
    await buyerOfCourse(site.db, COURSE, early)
    await buyerOfCourse(site.db, COURSE, quiet)
    // Quin turned course news off on the account page.
    await (await as(quiet)).profile.setMailPreferences({ courseUpdates: false })
    // Mo stopped this course's news only.
    await (await as(muted)).profile.setCourseNews({ courseId: COURSE, wanted: false })
    const title = 'Announced office hours'
    const { id } = await (await as(instructor)).live.schedule({
      courseId: COURSE,
      title,
      description: '',
      localStart: parisStart(4),
      timeZone: 'Europe/Paris',
      durationMinutes: 45,
      capacity: 30,
      joinUrl: 'https://meet.example.com/announced',
    })
    await (await as(early)).live.register({ sessionId: id })
    await announceLiveSessions(site.db, 'http://localhost:3000')
    await announceLiveSessions(site.db, 'http://localhost:3000')
    const announced = (to: string, about: string) =>
      site.db
        .selectFrom('mail_outbox')
        .select(['subject', 'text_body', 'list_unsubscribe'])
        .where('to_address', '=', to)
        .where('kind', '=', 'live_announced')
        .where('subject', 'like', `%${about}%`)
        .execute()
    const [mail, ...more] = await announced(holder.email, title)
    expect(more).toEqual([])
    expect(mail?.subject).toMatch(/^Live session for “.+”: Announced office hours$/)
    expect(mail?.text_body).toContain('45 minutes')
    expect(mail?.text_body).toContain('http://localhost:3000/live')
    expect(mail?.text_body).not.toContain('meet.example.com')
    // Why it came and where to stop it.
    expect(mail?.text_body).toContain('E-mail preferences: http://localhost:3000/account')
    // And a one-click link of the holder's own (decision 0156), in the footer and as List-Unsubscribe.
    expect(mail?.list_unsubscribe).toMatch(/^http:\/\/localhost:3000\/api\/mail\/unsubscribe\?token=[a-z2-7]{40}$/)
    expect(mail?.text_body).toContain(mail?.list_unsubscribe)
    expect(await announced(quiet.email, title)).toEqual([])
    expect(await announced(muted.email, title)).toEqual([])
    expect(await announced(early.email, title)).toEqual([])
    expect(await announced(premium.email, title)).toEqual([])
    expect(await announced(instructor.email, title)).toEqual([])

    // A session of a course not on sale waits for it; one cancelled before is never announced.
    const creator = await createUser(site.db, { firstName: 'Dora' })
    const draft = await studioCourseOf(site.db, creator.id)
    const learner = await createUser(site.db, { firstName: 'Lia' })
    await site.db
      .insertInto('access_grants')
      .values({ user_id: learner.id, kind: 'course', course_id: draft, source: 'staff', starts_at: now() })
      .execute()
    const waits = await (await as(creator)).live.schedule({
      courseId: draft,
      title: 'Before the launch',
      description: '',
      localStart: parisStart(8),
      timeZone: 'Europe/Paris',
      durationMinutes: 60,
      capacity: 10,
      joinUrl: 'https://meet.example.com/launch',
    })
    const dropped = await (await as(creator)).live.schedule({
      courseId: draft,
      title: 'Dropped before the launch',
      description: '',
      localStart: parisStart(9),
      timeZone: 'Europe/Paris',
      durationMinutes: 60,
      capacity: 10,
      joinUrl: 'https://meet.example.com/launch',
    })
    await (await as(creator)).live.cancelSession({ sessionId: dropped.id })
    await announceLiveSessions(site.db, 'http://localhost:3000')
    expect(await announced(learner.email, 'launch')).toEqual([])
    await site.db.updateTable('courses').set({ status: 'published' }).where('id', '=', draft).execute()
    await announceLiveSessions(site.db, 'http://localhost:3000')
    await announceLiveSessions(site.db, 'http://localhost:3000')
    expect((await announced(learner.email, 'launch')).map((m) => m.subject)).toEqual([
      'Live session for “A Course in the Studio”: Before the launch',
    ])
    expect(waits.id).toBeTruthy()
  })
})

describe('the waitlist and the host’s cancellation (decision 0142)', () => {
  it('a moved or cancelled session tells its waitlist too; the host’s cancellation says the host cancelled it', async () => {
    const seated = await createUser(site.db, { firstName: 'Sid' })
    const waiting = await createUser(site.db, { firstName: 'Wanda' })
    const leaver = await createUser(site.db, { firstName: 'Lou' })
    for (const member of [seated, waiting, leaver]) await buyerOfCourse(site.db, COURSE, member)
    const { id } = await schedule(instructor, { courseId: COURSE, capacity: 2, localStart: parisStart(11) })
    await (await as(leaver)).live.register({ sessionId: id })
    await (await as(seated)).live.register({ sessionId: id })
    expect((await (await as(waiting)).live.register({ sessionId: id })).status).toBe('waitlisted')
    // A member's own cancellation reads as theirs; their seat goes to the waitlist's first, who is then seated.
    await (await as(leaver)).live.cancel({ sessionId: id })
    expect((await mails(leaver.email, 'live_cancel')).at(-1)?.text_body).toContain('is cancelled for you.')
    const late = await createUser(site.db, { firstName: 'Lena' })
    await buyerOfCourse(site.db, COURSE, late)
    expect((await (await as(late)).live.register({ sessionId: id })).status).toBe('waitlisted')

    await (await as(instructor)).live.update({
      sessionId: id,
      title: 'Office hours',
      description: 'Bring your questions',
      localStart: parisStart(12, 19),
      timeZone: 'Europe/Paris',
      durationMinutes: 60,
      capacity: 2,
      joinUrl: 'https://meet.example.com/abc-defg',
    })
    const moved = await mails(late.email, 'live_waitlist_update')
    expect(moved).toHaveLength(1)
    expect(moved[0]?.subject).toMatch(/^Updated: Office hours is now .+ at 19:00 \(Europe\/Paris\)$/)
    expect(moved[0]?.text_body).toContain('still on the waitlist')
    expect(moved[0]?.calendar_ics).toBeNull()
    expect(await mails(seated.email, 'live_update')).toHaveLength(1)

    await (await as(instructor)).live.cancelSession({ sessionId: id })
    const cancel = (await mails(seated.email, 'live_cancel')).at(-1)
    expect(cancel?.calendar_method).toBe('CANCEL')
    expect(cancel?.text_body).toContain('The host has cancelled the live session “Office hours”')
    expect(cancel?.text_body).not.toContain('cancelled for you')
    const dropped = await mails(late.email, 'live_waitlist_cancel')
    expect(dropped).toHaveLength(1)
    expect(dropped[0]?.text_body).toContain('The host has cancelled the live session “Office hours”')
    expect(dropped[0]?.text_body).toContain('Your place on its waitlist is cancelled with it.')
  })
})

describe('seats and the studio (decision 0142)', () => {
  it('a capacity under the seats already taken is refused, at the capacity field', async () => {
    const { id } = await schedule(instructor, { courseId: COURSE, capacity: 3, localStart: parisStart(13) })
    const tess = await createUser(site.db, { firstName: 'Tess' })
    await buyerOfCourse(site.db, COURSE, tess)
    for (const member of [buyer, premium, tess]) await (await as(member)).live.register({ sessionId: id })
    const edit = (capacity: number) =>
      as(instructor).then((teacher) =>
        teacher.live.update({
          sessionId: id,
          title: 'Office hours, smaller room',
          description: '',
          localStart: parisStart(13),
          timeZone: 'Europe/Paris',
          durationMinutes: 60,
          capacity,
          joinUrl: 'https://meet.example.com/abc-defg',
        }),
      )
    await expect(edit(1)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: '3 members hold seats: the capacity can’t be lower than 3',
    })
    const mine = (await (await as(instructor)).live.studio()).sessions.find((s) => s.id === id)
    expect(mine).toMatchObject({ capacity: 3, registered: 3, title: 'Office hours' })
    await expect(edit(3)).resolves.toMatchObject({ moved: true })
  })

  it('offers courses on sale first and says which sessions no learner can see', async () => {
    const creator = await createUser(site.db, { firstName: 'Cleo' })
    const draft = await studioCourseOf(site.db, creator.id)
    const onSale = `zz-on-sale-${draft}`
    await site.db
      .insertInto('courses')
      .values({
        id: onSale,
        title: 'Zebra course on sale',
        category_id: await developmentCategory(site.db),
        instructor_name: 'Ada Lovelace',
        price_minor: 1999,
        owner_id: creator.id,
        status: 'published',
        what_you_will_learn: JSON.stringify(['One thing']),
        requirements: JSON.stringify([]),
      })
      .execute()
    await addCourseOwner(site.db, onSale, creator.id)
    const hidden = await schedule(creator, { courseId: draft, localStart: parisStart(14) })
    const shown = await schedule(creator, { courseId: onSale, localStart: parisStart(14) })
    const studio = await (await as(creator)).live.studio()
    // "A Course in the Studio" (draft) comes first by title, but the form's default is the course learners can buy.
    expect(studio.courses).toEqual([
      { id: onSale, title: 'Zebra course on sale', hiddenFromLearners: false },
      { id: draft, title: 'A Course in the Studio', hiddenFromLearners: true },
    ])
    const flag = (sessionId: string) => studio.sessions.find((s) => s.id === sessionId)?.hiddenFromLearners
    expect([flag(hidden.id), flag(shown.id)]).toEqual([true, false])
  })
})

// Live sessions (issue 34). Who may do what:
// - schedule and manage (edit, reschedule, cancel, attach the recording, read attendance): the course's instructors for
//   their course's sessions (its host only while they teach the course), and staff editors (who alone schedule
//   sessions for all Premium members);
// - see and register: active Premium members (every session), buyers of a course (its sessions), staff; the sessions
//   of a course never on sale (draft, in review, changes requested) only its instructors and staff;
// - the join link: only through /live/<id>/join, for a member with a seat who may still see the session, from 15
//   minutes before the start to its end; each opening is recorded (attendance);
// - told: seat holders and the waitlist of a moved or cancelled session; a course's holders, once, that a session of
//   it is scheduled (decision 0142).
import { sql } from 'kysely'
import type { z } from 'zod'
import { hasRole, isStaff, type Role } from '../../src-shared/roles.ts'
import {
  type createSessionInput,
  JOIN_OPENS_MINUTES_BEFORE,
  REMINDER_MINUTES_BEFORE,
  type recordingInput,
  type updateSessionInput,
} from '../../src-shared/schemas/live.ts'
import { courseHoldersNow } from '../access/course-holders.ts'
import { everHeld, ownedCourseIds } from '../access/courses.ts'
import { findCourseForLearning } from '../catalog/repository-lessons.ts'
import { courseRoleOf } from '../creators/course-team.ts'
import { schoolSlugsOfCourses } from '../creators/schools.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import {
  type CancelCause,
  sendAnnouncements,
  sendInvitation,
  sendReminder,
  sendWaitlisted,
  sendWaitlistNews,
} from '../live/mails.ts'
import {
  attendanceOf,
  cancelRegistration,
  cancelSession,
  claimAnnouncements,
  claimDueReminders,
  everRegistered,
  findSession,
  insertSession,
  listSessions,
  myStatuses,
  recordJoin,
  register,
  registeredMembers,
  registrationOf,
  type SessionFields,
  type SessionRow,
  seatCounts,
  setRecording,
  upcomingSessionsHostedBy,
  updateSession,
} from '../live/sessions.ts'
import { utcToLocalInput, zonedToUtc } from '../live/zoned-time.ts'
import { isPremium } from '../subscriptions/premium.ts'
import { NEVER_ON_SALE_STATUSES, neverOnSale } from './lesson-access.ts'
import { courseSiteUrls } from './school-domain.ts'

/** The signed-in person; `staff` is false for an admin who still needs the second factor STAFF_2FA requires. */
export type LiveActor = { id: string; role: Role; staff: boolean }

export const LIVE_MESSAGES = {
  notFound: 'Session not found',
  cannotSchedule: 'Only the course’s instructors and staff can schedule its live sessions',
  premiumStaffOnly: 'Only staff can schedule a session for all Premium members',
  noAccess: 'Live sessions are for Premium members and the course’s learners',
  notYet: 'The join link opens 15 minutes before the start',
  ended: 'This session has ended',
  noSeat: 'Register for the session first',
} as const

const MINUTE = 60_000
const endsAt = (s: { starts_at: Date; duration_minutes: number }) =>
  new Date(s.starts_at.getTime() + s.duration_minutes * MINUTE)

/**
 * Staff editors manage every session; a course's session is its instructors' now (its host too while they teach it:
 * a host removed from the course's team, or from its school, no longer manages it nor reads its attendance).
 */
async function canManage(db: DB, actor: LiveActor, session: { course_id: string | null }) {
  if (actor.staff && hasRole(actor.role, 'editor')) return true
  return session.course_id !== null && (await courseRoleOf(db, actor.id, session.course_id)) !== null
}

async function canSee(db: DB, actor: LiveActor, session: SessionRow) {
  if (actor.staff && isStaff(actor.role)) return true
  if (await canManage(db, actor, session)) return true
  // A course not yet on sale is unknown to members (as in the player): neither Premium nor a grant shows its sessions.
  if (session.course_status !== null && neverOnSale(session.course_status)) return false
  if (await isPremium(db, actor)) return true
  return session.course_id !== null && (await ownedCourseIds(db, actor.id)).includes(session.course_id)
}

async function sessionFor(db: DB, id: string) {
  const session = await findSession(db, id)
  if (!session) throw new DomainError('not_found', LIVE_MESSAGES.notFound)
  return session
}

async function managed(db: DB, actor: LiveActor, id: string) {
  const session = await sessionFor(db, id)
  // Someone else's session answers as not found: a creator cannot learn another's session ids.
  if (!(await canManage(db, actor, session))) throw new DomainError('not_found', LIVE_MESSAGES.notFound)
  return session
}

/** The form's fields; a new start (any on scheduling, a changed one on edit) must be in the future. */
function fieldsOf(input: z.output<typeof createSessionInput>, current?: { starts_at: Date }): SessionFields {
  const startsAt = zonedToUtc(input.localStart, input.timeZone)
  const unchanged = current !== undefined && current.starts_at.getTime() === startsAt.getTime()
  if (!unchanged && startsAt.getTime() <= clock.nowMs()) {
    throw new DomainError('invalid', 'Choose a start in the future', { field: 'localStart' })
  }
  return {
    title: input.title,
    description: input.description,
    startsAt,
    durationMinutes: input.durationMinutes,
    timeZone: input.timeZone,
    capacity: input.capacity,
    joinUrl: input.joinUrl,
  }
}

export async function scheduleSession(db: DB, actor: LiveActor, input: z.output<typeof createSessionInput>) {
  const courseId = input.courseId ?? null
  if (courseId === null) {
    if (!(actor.staff && hasRole(actor.role, 'editor')))
      throw new DomainError('forbidden', LIVE_MESSAGES.premiumStaffOnly)
  } else {
    const instructor = (await courseRoleOf(db, actor.id, courseId)) !== null
    if (!instructor && !(actor.staff && hasRole(actor.role, 'editor'))) {
      throw new DomainError('forbidden', LIVE_MESSAGES.cannotSchedule)
    }
    if (!(await findCourseForLearning(db, courseId))) throw new DomainError('not_found', 'Course not found')
  }
  const id = await insertSession(db, actor.id, courseId, fieldsOf(input))
  return { id }
}

/**
 * New details; a moved session sends every seat holder the update (SEQUENCE raised), newly seated members their
 * invitation. A session under way keeps its start or moves it to the future (its link or length can be fixed while it
 * runs); an ended one is no longer edited, as the studio shows it.
 */
export async function editSession(
  db: DB,
  actor: LiveActor,
  input: z.output<typeof updateSessionInput>,
  publicUrl: string,
) {
  const session = await managed(db, actor, input.sessionId)
  if (endsAt(session).getTime() <= clock.nowMs()) throw new DomainError('conflict', LIVE_MESSAGES.ended)
  const fields = fieldsOf(input, session)
  return db.transaction().execute(async (trx) => {
    const { moved, promoted } = await updateSession(trx, input.sessionId, fields)
    if (moved) {
      for (const member of await registeredMembers(trx, input.sessionId)) {
        if (promoted.includes(member.id)) continue
        await sendInvitation(trx, input.sessionId, member.id, 'update', publicUrl)
      }
      // Those still waiting hear of it too: their waitlist mail named the old time.
      for (const member of await registeredMembers(trx, input.sessionId, 'waitlisted')) {
        await sendWaitlistNews(trx, input.sessionId, member.id, 'update', publicUrl)
      }
    }
    for (const userId of promoted) await sendInvitation(trx, input.sessionId, userId, 'invitation', publicUrl)
    return { moved, promoted: promoted.length }
  })
}

export async function cancelWholeSession(db: DB, actor: LiveActor, sessionId: string, publicUrl: string) {
  await managed(db, actor, sessionId)
  return db.transaction().execute(async (trx) => ({ cancelled: await cancelAndTell(trx, sessionId, publicUrl) }))
}

/** Cancels the session, once: each member with a seat gets the cancellation, each on its waitlist the news. */
async function cancelAndTell(trx: DB, sessionId: string, publicUrl: string): Promise<boolean> {
  const [seated, waiting] = await Promise.all([
    registeredMembers(trx, sessionId),
    registeredMembers(trx, sessionId, 'waitlisted'),
  ])
  if (!(await cancelSession(trx, sessionId))) return false
  for (const member of seated) await sendInvitation(trx, sessionId, member.id, 'cancel', publicUrl, 'session')
  for (const member of waiting) await sendWaitlistNews(trx, sessionId, member.id, 'cancel', publicUrl)
  return true
}

/** An erased host's sessions still to come are cancelled (the meeting was theirs), their members told. */
export async function cancelSessionsHostedBy(trx: DB, hostId: string, publicUrl: string): Promise<void> {
  for (const id of await upcomingSessionsHostedBy(trx, hostId)) await cancelAndTell(trx, id, publicUrl)
}

export async function attachRecording(db: DB, actor: LiveActor, input: z.output<typeof recordingInput>) {
  const session = await managed(db, actor, input.sessionId)
  if (session.starts_at.getTime() > clock.nowMs()) {
    throw new DomainError('conflict', 'Attach the recording after the session has started')
  }
  if (input.lessonId) {
    const lesson = await db
      .selectFrom('lessons')
      .select('id')
      .where('id', '=', input.lessonId)
      .where('course_id', '=', session.course_id ?? '')
      .executeTakeFirst()
    if (!lesson) throw new DomainError('invalid', 'Choose a lesson of this session’s course', { field: 'lessonId' })
  }
  await setRecording(db, session.id, { lessonId: input.lessonId ?? null, url: input.url ?? null })
  return { ok: true }
}

export async function registerForSession(db: DB, actor: LiveActor, sessionId: string, publicUrl: string) {
  const session = await sessionFor(db, sessionId)
  if (!(await canSee(db, actor, session))) throw new DomainError('not_found', LIVE_MESSAGES.notFound)
  return db.transaction().execute(async (trx) => {
    // A full session first frees the seats of holders whose Premium or course has ended since they registered.
    const seats = (await seatCounts(trx, [sessionId])).get(sessionId)
    if ((seats?.registered ?? 0) >= session.capacity) await releaseLapsedSeats(trx, session, publicUrl)
    const { status, changed } = await register(trx, sessionId, actor.id)
    if (changed) {
      if (status === 'registered') await sendInvitation(trx, sessionId, actor.id, 'invitation', publicUrl)
      else await sendWaitlisted(trx, sessionId, actor.id, publicUrl)
    }
    return { status }
  })
}

export async function leaveSession(db: DB, actor: LiveActor, sessionId: string, publicUrl: string) {
  await sessionFor(db, sessionId)
  return db.transaction().execute(async (trx) => {
    const was = await giveUpSeat(trx, sessionId, actor.id, publicUrl)
    return { cancelled: was !== null }
  })
}

/**
 * Cancels a seat or waitlist place: the holder's calendar gets the cancellation (with the server's reason when they
 * did not ask for it), a freed seat's new holder the invitation.
 */
async function giveUpSeat(trx: DB, sessionId: string, userId: string, publicUrl: string, cause?: CancelCause) {
  const { was, promoted } = await cancelRegistration(trx, sessionId, userId)
  if (was === 'registered') await sendInvitation(trx, sessionId, userId, 'cancel', publicUrl, cause)
  for (const promotedId of promoted) await sendInvitation(trx, sessionId, promotedId, 'invitation', publicUrl)
  return was
}

/**
 * Frees the seats of holders who may no longer see the session (their Premium or course purchase ended since they
 * registered, and /live no longer shows it to them to give it up), so the waitlist moves up.
 */
async function releaseLapsedSeats(trx: DB, session: SessionRow, publicUrl: string) {
  for (const member of await registeredMembers(trx, session.id)) {
    if (await canSee(trx, { id: member.id, role: member.role, staff: true }, session)) continue
    await giveUpSeat(trx, session.id, member.id, publicUrl, { because: await lapseReason(trx, member.id, session) })
  }
}

/**
 * Why a member's seat was freed for them: "because your Premium membership ended" (what held them to a session for all
 * Premium members, or to a course's when they never bought it), their course's refund, or the course gone off sale.
 */
async function lapseReason(db: DB, userId: string, session: SessionRow): Promise<string> {
  if (session.course_status !== null && neverOnSale(session.course_status)) {
    return 'because its course is no longer available'
  }
  const held = await everHeld(db, userId, session.course_id)
  const course = `your access to “${session.course_title ?? 'its course'}”`
  if (session.course_id === null || (held.premium && !held.course)) return 'because your Premium membership ended'
  if (held.course && !held.premium) return `because ${course} ended`
  return `because your Premium membership and ${course} have ended`
}

/**
 * Which sessions the person may see, as listSessions' filter (the rule canSee applies to one session): staff and
 * Premium members every one, others their courses' (held or taught); members none of a course never on sale, but for
 * the courses they teach.
 */
async function visibleTo(db: DB, actor: LiveActor, now: Date) {
  const everything = (actor.staff && isStaff(actor.role)) || (await isPremium(db, actor, now))
  const taught = await db.selectFrom('course_instructors').select('course_id').where('user_id', '=', actor.id).execute()
  const courseIds = everything
    ? ('all' as const)
    : [...new Set([...(await ownedCourseIds(db, actor.id, now)), ...taught.map((row) => row.course_id)])]
  const hidden =
    actor.staff && isStaff(actor.role)
      ? undefined
      : { courseStatuses: NEVER_ON_SALE_STATUSES, exceptCourseIds: taught.map((row) => row.course_id) }
  return { courseIds, premiumWide: everything, hidden }
}

/** /live: upcoming and past sessions the person may see, with their seat and (from 15 minutes before) the join path. */
export async function liveSessionsPage(db: DB, actor: LiveActor) {
  const now = clock.now()
  const visible = await visibleTo(db, actor, now)
  const [upcoming, past] = await Promise.all(
    [false, true].map((pastOnes) => listSessions(db, { ...visible, past: pastOnes, now })),
  )
  const all = [...(upcoming ?? []), ...(past ?? [])]
  const ids = all.map((row) => row.id)
  const courseIds = [...new Set(all.flatMap((row) => (row.course_id ? [row.course_id] : [])))]
  const [counts, mine, schools] = await Promise.all([
    seatCounts(db, ids),
    myStatuses(db, actor.id, ids),
    schoolSlugsOfCourses(db, courseIds),
  ])
  const view = (row: (typeof all)[number]) => {
    const status = mine.get(row.id) ?? null
    const opens = row.starts_at.getTime() - JOIN_OPENS_MINUTES_BEFORE * MINUTE
    const canJoin = status === 'registered' && !row.cancelled_at && now.getTime() >= opens && now < endsAt(row)
    const seats = counts.get(row.id) ?? { registered: 0, waitlisted: 0 }
    return {
      ...sessionFacts(row),
      /** The school of the session's course (a Premium session has none): a school's own domain lists its own. */
      school: row.course_id ? (schools.get(row.course_id) ?? null) : null,
      endsAt: endsAt(row).toISOString(),
      seatsLeft: Math.max(0, row.capacity - seats.registered),
      waitlisted: seats.waitlisted,
      cancelled: row.cancelled_at !== null,
      myStatus: seatStatus(status),
      joinPath: canJoin ? `/live/${row.id}/join` : null,
      joinOpensAt: new Date(opens).toISOString(),
      recording:
        row.recording_url || row.recording_lesson_id
          ? {
              url: row.recording_url,
              lessonPath:
                row.recording_lesson_id && row.course_id ? `/learn/${row.course_id}/${row.recording_lesson_id}` : null,
              lessonTitle: row.recording_lesson_title,
            }
          : null,
    }
  }
  return { upcoming: (upcoming ?? []).map(view), past: (past ?? []).map(view), premium: visible.premiumWide }
}

const seatStatus = (status: 'registered' | 'waitlisted' | 'cancelled' | null) =>
  status === 'cancelled' ? null : status

/**
 * The sessions still ahead (not cancelled) that the person may attend, of one course or of every course (decision
 * 0142): the course page, the player and My courses say "Live session: <date>" with them. Per viewer, so never in
 * the course page's kept answer (catalog.course, decision 0072).
 */
export async function upcomingLiveSessions(db: DB, actor: LiveActor, courseId?: string) {
  const now = clock.now()
  const visible = await visibleTo(db, actor, now)
  const rows = (await listSessions(db, { ...visible, past: false, now, courseId, withoutCancelled: true })).filter(
    (row) => row.course_id !== null,
  )
  const ids = rows.map((row) => row.id)
  const [counts, mine] = await Promise.all([seatCounts(db, ids), myStatuses(db, actor.id, ids)])
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    courseId: row.course_id,
    startsAt: row.starts_at.toISOString(),
    timeZone: row.time_zone,
    seatsLeft: Math.max(0, row.capacity - (counts.get(row.id)?.registered ?? 0)),
    myStatus: seatStatus(mine.get(row.id) ?? null),
  }))
}

/** What every list says of a session: its words, course, start (UTC), length, time zone and seats. */
function sessionFacts(row: Awaited<ReturnType<typeof listSessions>>[number]) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    courseId: row.course_id,
    courseTitle: row.course_title,
    startsAt: row.starts_at.toISOString(),
    durationMinutes: row.duration_minutes,
    timeZone: row.time_zone,
    capacity: row.capacity,
  }
}

/** The studio's list: sessions of the courses the person teaches (staff editors: all), with the join link and seats. */
export async function studioSessions(db: DB, actor: LiveActor) {
  const now = clock.now()
  const staffEditor = actor.staff && hasRole(actor.role, 'editor')
  const taught = await db.selectFrom('course_instructors').select('course_id').where('user_id', '=', actor.id).execute()
  const filter = staffEditor
    ? { courseIds: 'all' as const, premiumWide: true }
    : { courseIds: taught.map((row) => row.course_id), premiumWide: false, hostId: actor.id }
  const [upcoming, past] = await Promise.all(
    [false, true].map((pastOnes) => listSessions(db, { ...filter, past: pastOnes, now })),
  )
  // Sessions the person hosts on a course they no longer teach (removed from its team or school) are not theirs.
  const managedOnly = async (rows: NonNullable<typeof upcoming>) => {
    const kept = await Promise.all(rows.map((row) => canManage(db, actor, row)))
    return rows.filter((_, index) => kept[index])
  }
  const [upcomingRows, pastRows] = await Promise.all([managedOnly(upcoming ?? []), managedOnly(past ?? [])])
  const all = [...upcomingRows, ...pastRows]
  const counts = await seatCounts(
    db,
    all.map((row) => row.id),
  )
  // Courses on sale first (the form's default): a session of a course never on sale is hidden from every learner
  // (decision 0111), which the form and the list say (decision 0142).
  const onSaleFirst = sql<number>`case when c.status in (${sql.join([...NEVER_ON_SALE_STATUSES])}) then 1 else 0 end`
  const courseRows = staffEditor
    ? await db
        .selectFrom('courses as c')
        .select(['c.id', 'c.title', 'c.status'])
        .orderBy(onSaleFirst)
        .orderBy('c.title')
        .limit(500)
        .execute()
    : await db
        .selectFrom('course_instructors as ci')
        .innerJoin('courses as c', 'c.id', 'ci.course_id')
        .select(['c.id', 'c.title', 'c.status'])
        .where('ci.user_id', '=', actor.id)
        .orderBy(onSaleFirst)
        .orderBy('c.title')
        .execute()
  const courses = courseRows.map((row) => ({
    id: row.id,
    title: row.title,
    hiddenFromLearners: neverOnSale(row.status),
  }))
  const view = (row: (typeof all)[number], isPast: boolean) => ({
    ...sessionFacts(row),
    localStart: utcToLocalInput(row.starts_at, row.time_zone),
    joinUrl: row.join_url,
    sequence: row.sequence,
    cancelled: row.cancelled_at !== null,
    registered: counts.get(row.id)?.registered ?? 0,
    waitlisted: counts.get(row.id)?.waitlisted ?? 0,
    past: isPast,
    recordingUrl: row.recording_url,
    recordingLessonId: row.recording_lesson_id,
    hiddenFromLearners: row.course_status !== null && neverOnSale(row.course_status),
  })
  return {
    sessions: [...upcomingRows.map((row) => view(row, false)), ...pastRows.map((row) => view(row, true))],
    courses,
    canSchedulePremium: staffEditor,
  }
}

export async function sessionAttendance(db: DB, actor: LiveActor, sessionId: string) {
  await managed(db, actor, sessionId)
  const rows = await attendanceOf(db, sessionId)
  return rows.map((row) => ({
    name: [row.first_name, row.last_name].filter(Boolean).join(' ') || row.email,
    email: row.email,
    firstJoinedAt: row.first_joined_at.toISOString(),
    joins: row.joins,
  }))
}

export async function courseLessons(db: DB, actor: LiveActor, sessionId: string) {
  const session = await managed(db, actor, sessionId)
  if (!session.course_id) return []
  return db
    .selectFrom('lessons')
    .select(['id', 'title'])
    .where('course_id', '=', session.course_id)
    .orderBy('position')
    .limit(500)
    .execute()
}

/**
 * /live/<id>/join: where the join link leads, for a seat holder in the window (or a manager, any time before the end);
 * a member's opening is recorded. A refusal says why (the route turns it into a page).
 */
export async function joinSession(
  db: DB,
  actor: LiveActor,
  sessionId: string,
): Promise<{ url: string; refused: null } | { url: null; refused: string }> {
  const session = await findSession(db, sessionId)
  if (!session || session.cancelled_at) return { url: null, refused: LIVE_MESSAGES.notFound }
  const now = clock.nowMs()
  const manages = await canManage(db, actor, session)
  const seated = manages || (await registrationOf(db, sessionId, actor.id))?.status === 'registered'
  const visible = manages || (await canSee(db, actor, session))
  // A session the person can neither see nor holds a seat in answers as an id that names none (decision 0114): the
  // link says nothing of a session they were never shown (that it exists, has ended, or what course it is for).
  if (!seated && !visible) return { url: null, refused: LIVE_MESSAGES.notFound }
  if (now >= endsAt(session).getTime()) return { url: null, refused: LIVE_MESSAGES.ended }
  if (manages) return { url: session.join_url, refused: null }
  if (!seated) return { url: null, refused: LIVE_MESSAGES.noSeat }
  // A seat taken while a member held Premium or the course does not outlast that hold (refund, membership ended).
  if (!visible) return { url: null, refused: LIVE_MESSAGES.noAccess }
  if (now < session.starts_at.getTime() - JOIN_OPENS_MINUTES_BEFORE * MINUTE)
    return { url: null, refused: LIVE_MESSAGES.notYet }
  await recordJoin(db, sessionId, actor.id)
  return { url: session.join_url, refused: null }
}

/** Sessions announced per transaction: a course's holders are mailed in the claim's transaction. */
const ANNOUNCE_BATCH = 20

/**
 * A course's holders told once that a session of it is scheduled (decision 0142; the 'live.reminders' job, every five
 * minutes): sessions still ahead, not cancelled, whose course learners may see (a session scheduled before its course
 * is on sale waits for it). Not those who already asked for a place, nor its instructors; Premium members who do not
 * hold the course find it on /live, as they are not mailed for every course either. Returns the mails queued.
 */
export async function announceLiveSessions(db: DB, publicUrl: string, now = clock.now()) {
  let sent = 0
  for (;;) {
    const batch = await db.transaction().execute((trx) => announceBatch(trx, publicUrl, now))
    sent += batch.sent
    if (batch.claimed < ANNOUNCE_BATCH) return sent
  }
}

async function announceBatch(trx: DB, publicUrl: string, now: Date) {
  const claimed = await claimAnnouncements(trx, now, NEVER_ON_SALE_STATUSES, ANNOUNCE_BATCH)
  // A course's session links to its school's own domain when it has a verified one (decision 0063).
  const siteUrlOf = courseSiteUrls(trx, publicUrl)
  let sent = 0
  for (const session of claimed) {
    if (session.course_id === null) continue
    const [holders, asked, teachers] = await Promise.all([
      courseHoldersNow(trx, session.course_id, now),
      everRegistered(trx, session.id),
      trx.selectFrom('course_instructors').select('user_id').where('course_id', '=', session.course_id).execute(),
    ])
    const teaching = new Set(teachers.map((row) => row.user_id))
    const told = holders.filter((userId) => !asked.has(userId) && !teaching.has(userId))
    const announced = { sessionId: session.id, courseId: session.course_id }
    sent += await sendAnnouncements(trx, announced, told, await siteUrlOf(session.course_id))
  }
  return { claimed: claimed.length, sent }
}

/** The reminders an hour before (the 'live.reminders' job): each seat holder reminded once per start time. */
export async function sendLiveReminders(db: DB, publicUrl: string, now = clock.now()) {
  return db.transaction().execute(async (trx) => {
    const due = await claimDueReminders(trx, now, REMINDER_MINUTES_BEFORE)
    // A course's session links to its school's own domain when it has a verified one (decision 0063).
    const siteUrlOf = courseSiteUrls(trx, publicUrl)
    for (const row of due) {
      const session = await findSession(trx, row.session_id)
      if (!session) continue
      // A seat whose holder no longer holds Premium or the course is not reminded (its join link would refuse them):
      // it goes to the waitlist's first.
      const person = await trx.selectFrom('users').select('role').where('id', '=', row.user_id).executeTakeFirst()
      if (!person || !(await canSee(trx, { id: row.user_id, role: person.role, staff: true }, session))) {
        const why = person ? { because: await lapseReason(trx, row.user_id, session) } : undefined
        await giveUpSeat(trx, row.session_id, row.user_id, publicUrl, why)
        continue
      }
      await sendReminder(trx, row.session_id, row.user_id, await siteUrlOf(session.course_id))
    }
    return due.length
  })
}

// Live sessions (issue 34): the only writer of live_sessions, live_registrations and live_attendance. Who may do
// what is the flow's (flows/live-sessions.ts); this module keeps the seats right.
import { sql } from 'kysely'
import type { CourseStatus, LiveRegistrationStatus } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'

export const SESSION_COLUMNS = [
  's.id',
  's.course_id',
  's.host_id',
  's.title',
  's.description',
  's.starts_at',
  's.duration_minutes',
  's.time_zone',
  's.capacity',
  's.join_url',
  's.sequence',
  's.cancelled_at',
  's.recording_lesson_id',
  's.recording_url',
] as const

export interface SessionFields {
  title: string
  description: string
  startsAt: Date
  durationMinutes: number
  timeZone: string
  capacity: number
  joinUrl: string
}

export function findSession(db: DB, id: string) {
  return db
    .selectFrom('live_sessions as s')
    .leftJoin('courses as c', 'c.id', 's.course_id')
    .select(SESSION_COLUMNS)
    .select(['c.title as course_title', 'c.status as course_status'])
    .where('s.id', '=', id)
    .executeTakeFirst()
}
export type SessionRow = NonNullable<Awaited<ReturnType<typeof findSession>>>

/** The columns the scheduling form sets, on creation and on edit. */
function formColumns(fields: SessionFields) {
  return {
    title: fields.title,
    description: fields.description,
    starts_at: fields.startsAt,
    duration_minutes: fields.durationMinutes,
    time_zone: fields.timeZone,
    capacity: fields.capacity,
    join_url: fields.joinUrl,
  }
}

export async function insertSession(db: DB, hostId: string, courseId: string | null, fields: SessionFields) {
  const row = await db
    .insertInto('live_sessions')
    .values({
      course_id: courseId,
      host_id: hostId,
      ...formColumns(fields),
      created_at: clock.now(),
      updated_at: clock.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Why a capacity under the seats already taken is refused. */
export function capacityBelowSeatsMessage(taken: number) {
  return `${taken} ${taken === 1 ? 'member holds a seat' : 'members hold seats'}: the capacity can’t be lower than ${taken}`
}

/**
 * Saves new details; a new start, length or zone raises the invitation's SEQUENCE and re-arms the reminder. Returns
 * whether the schedule moved (registered members are then sent the update). A larger capacity seats the waitlist.
 */
export async function updateSession(trx: DB, id: string, fields: SessionFields) {
  const before = await trx
    .selectFrom('live_sessions')
    .select(['starts_at', 'duration_minutes', 'time_zone', 'title', 'cancelled_at'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow()
  if (before.cancelled_at) throw new DomainError('conflict', 'This session was cancelled')
  // Seats already given stay given (decision 0142): a capacity under them is refused, not a silent "3/1 seats".
  const taken = await seatsTaken(trx, id)
  if (fields.capacity < taken) {
    throw new DomainError('invalid', capacityBelowSeatsMessage(taken), { field: 'capacity' })
  }
  const moved =
    before.starts_at.getTime() !== fields.startsAt.getTime() ||
    before.duration_minutes !== fields.durationMinutes ||
    before.time_zone !== fields.timeZone ||
    before.title !== fields.title
  await trx
    .updateTable('live_sessions')
    .set({
      ...formColumns(fields),
      updated_at: clock.now(),
      ...(moved ? { sequence: sql<number>`sequence + 1` } : {}),
    })
    .where('id', '=', id)
    .execute()
  if (moved && before.starts_at.getTime() !== fields.startsAt.getTime()) {
    await trx.updateTable('live_registrations').set({ reminded_at: null }).where('session_id', '=', id).execute()
  }
  const promoted = await fillSeats(trx, id)
  return { moved, promoted }
}

export async function cancelSession(trx: DB, id: string) {
  const row = await trx
    .updateTable('live_sessions')
    .set({ cancelled_at: clock.now(), sequence: sql<number>`sequence + 1`, updated_at: clock.now() })
    .where('id', '=', id)
    .where('cancelled_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  return Boolean(row)
}

/** The sessions this person hosts that have not started and are not cancelled. */
export async function upcomingSessionsHostedBy(db: DB, hostId: string, now = clock.now()): Promise<string[]> {
  const rows = await db
    .selectFrom('live_sessions')
    .select('id')
    .where('host_id', '=', hostId)
    .where('cancelled_at', 'is', null)
    .where('starts_at', '>', now)
    .execute()
  return rows.map((row) => row.id)
}

export function setRecording(db: DB, id: string, recording: { lessonId: string | null; url: string | null }) {
  return db
    .updateTable('live_sessions')
    .set({ recording_lesson_id: recording.lessonId, recording_url: recording.url, updated_at: clock.now() })
    .where('id', '=', id)
    .execute()
}

/** Locks the session's row: registrations, cancellations and capacity changes of one session take turns. */
async function lockSession(trx: DB, id: string) {
  const row = await trx
    .selectFrom('live_sessions')
    .select(['capacity', 'cancelled_at', 'starts_at', 'duration_minutes'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
  if (!row) throw new DomainError('not_found', 'Session not found')
  return row
}

async function seatsTaken(trx: DB, id: string) {
  const row = await trx
    .selectFrom('live_registrations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('session_id', '=', id)
    .where('status', '=', 'registered')
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Seats the waitlist, oldest request first, while there are free seats; returns who was seated. */
async function fillSeats(trx: DB, id: string): Promise<string[]> {
  const session = await lockSession(trx, id)
  if (session.cancelled_at) return []
  const free = session.capacity - (await seatsTaken(trx, id))
  if (free <= 0) return []
  const next = await trx
    .selectFrom('live_registrations')
    .select('user_id')
    .where('session_id', '=', id)
    .where('status', '=', 'waitlisted')
    .orderBy('requested_at')
    .orderBy('user_id')
    .limit(free)
    .execute()
  if (next.length === 0) return []
  const ids = next.map((row) => row.user_id)
  await trx
    .updateTable('live_registrations')
    .set({ status: 'registered' })
    .where('session_id', '=', id)
    .where('user_id', 'in', ids)
    .execute()
  return ids
}

/**
 * A seat, or a place on the waitlist when every seat is taken. The session's row is locked first, so registrations at
 * the last seat take turns and the capacity is never passed (tests/integration/live/live-race.test.ts).
 */
export async function register(
  trx: DB,
  id: string,
  userId: string,
): Promise<{ status: LiveRegistrationStatus; changed: boolean }> {
  const session = await lockSession(trx, id)
  if (session.cancelled_at) throw new DomainError('conflict', 'This session was cancelled')
  const ends = session.starts_at.getTime() + session.duration_minutes * 60_000
  if (ends <= clock.nowMs()) throw new DomainError('conflict', 'This session has ended')
  // Read under the session's lock: of two requests at once, the second finds the first's place and changes nothing.
  const current = await registrationOf(trx, id, userId)
  if (current && current.status !== 'cancelled') return { status: current.status, changed: false }
  const status: LiveRegistrationStatus = (await seatsTaken(trx, id)) < session.capacity ? 'registered' : 'waitlisted'
  await trx
    .insertInto('live_registrations')
    .values({ session_id: id, user_id: userId, status, requested_at: clock.now() })
    .onConflict((oc) =>
      oc
        .columns(['session_id', 'user_id'])
        .doUpdateSet({ status, requested_at: clock.now(), cancelled_at: null, reminded_at: null }),
    )
    .execute()
  return { status, changed: true }
}

/** Gives up a seat or a waitlist place; a freed seat goes to the oldest waitlisted request (returned). */
export async function cancelRegistration(trx: DB, id: string, userId: string) {
  await lockSession(trx, id)
  const current = await registrationOf(trx, id, userId)
  if (!current || current.status === 'cancelled') return { was: null, promoted: [] as string[] }
  await trx
    .updateTable('live_registrations')
    .set({ status: 'cancelled', cancelled_at: clock.now() })
    .where('session_id', '=', id)
    .where('user_id', '=', userId)
    .execute()
  const promoted = current.status === 'registered' ? await fillSeats(trx, id) : []
  return { was: current.status, promoted }
}

export function registrationOf(db: DB, id: string, userId: string) {
  return db
    .selectFrom('live_registrations')
    .select(['status', 'requested_at'])
    .where('session_id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

export async function seatCounts(db: DB, ids: string[]) {
  if (ids.length === 0) return new Map<string, { registered: number; waitlisted: number }>()
  const rows = await db
    .selectFrom('live_registrations')
    .select(['session_id', 'status'])
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('session_id', 'in', ids)
    .where('status', '!=', 'cancelled')
    .groupBy(['session_id', 'status'])
    .execute()
  const counts = new Map<string, { registered: number; waitlisted: number }>()
  for (const row of rows) {
    const entry = counts.get(row.session_id) ?? { registered: 0, waitlisted: 0 }
    if (row.status === 'registered') entry.registered = Number(row.n)
    else entry.waitlisted = Number(row.n)
    counts.set(row.session_id, entry)
  }
  return counts
}

export async function myStatuses(db: DB, userId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, LiveRegistrationStatus>()
  const rows = await db
    .selectFrom('live_registrations')
    .select(['session_id', 'status'])
    .where('user_id', '=', userId)
    .where('session_id', 'in', ids)
    .execute()
  return new Map(rows.map((row) => [row.session_id, row.status]))
}

/**
 * Sessions in a window of time, optionally only some courses' and the Premium-wide ones; `hidden` leaves out the
 * sessions of courses in those statuses, but for the courses it names.
 */
export function listSessions(
  db: DB,
  filter: {
    courseIds?: string[] | 'all'
    premiumWide: boolean
    hostId?: string
    past: boolean
    now: Date
    hidden?: { courseStatuses: readonly CourseStatus[]; exceptCourseIds: string[] }
    /** Only this course's sessions. */
    courseId?: string
    /** Leave out cancelled sessions. */
    withoutCancelled?: boolean
  },
) {
  let query = db
    .selectFrom('live_sessions as s')
    .leftJoin('courses as c', 'c.id', 's.course_id')
    .leftJoin('lessons as l', 'l.id', 's.recording_lesson_id')
    .select(SESSION_COLUMNS)
    .select(['c.title as course_title', 'c.status as course_status', 'l.title as recording_lesson_title'])
  const ends = sql<Date>`s.starts_at + make_interval(mins => s.duration_minutes)`
  query = filter.past ? query.where(ends, '<=', filter.now) : query.where(ends, '>', filter.now)
  if (filter.hostId !== undefined) {
    const hostId = filter.hostId
    const courseIds = filter.courseIds
    query = query.where((eb) =>
      eb.or([
        eb('s.host_id', '=', hostId),
        ...(Array.isArray(courseIds) && courseIds.length > 0 ? [eb('s.course_id', 'in', courseIds)] : []),
      ]),
    )
  } else if (filter.courseIds !== 'all') {
    const courseIds = filter.courseIds ?? []
    query = query.where((eb) =>
      eb.or([
        ...(filter.premiumWide ? [eb('s.course_id', 'is', null)] : []),
        ...(courseIds.length > 0 ? [eb('s.course_id', 'in', courseIds)] : []),
        eb.val(false),
      ]),
    )
  }
  if (filter.courseId !== undefined) query = query.where('s.course_id', '=', filter.courseId)
  if (filter.withoutCancelled) query = query.where('s.cancelled_at', 'is', null)
  if (filter.hidden && filter.hidden.courseStatuses.length > 0) {
    const { courseStatuses, exceptCourseIds } = filter.hidden
    query = query.where((eb) =>
      eb.or([
        eb('s.course_id', 'is', null),
        eb('c.status', 'not in', [...courseStatuses]),
        ...(exceptCourseIds.length > 0 ? [eb('s.course_id', 'in', exceptCourseIds)] : []),
      ]),
    )
  }
  return query
    .orderBy('s.starts_at', filter.past ? 'desc' : 'asc')
    .limit(100)
    .execute()
}

/** The members holding a seat (or, with 'waitlisted', waiting for one). */
export function registeredMembers(db: DB, id: string, status: 'registered' | 'waitlisted' = 'registered') {
  return db
    .selectFrom('live_registrations as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.role', 'r.status'])
    .where('r.session_id', '=', id)
    .where('r.status', '=', status)
    .execute()
}

/** Everyone who ever asked for a place at the session (seated, waiting or given up): not announced to again. */
export async function everRegistered(db: DB, id: string): Promise<Set<string>> {
  const rows = await db.selectFrom('live_registrations').select('user_id').where('session_id', '=', id).execute()
  return new Set(rows.map((row) => row.user_id))
}

/**
 * Claims sessions of a course to announce (decision 0142): still ahead, not cancelled, their course on sale or once
 * on sale (not in `hiddenStatuses`), not yet announced. The guarded update claims each once, however often or on
 * however many workers the sweep runs.
 */
export function claimAnnouncements(trx: DB, now: Date, hiddenStatuses: readonly CourseStatus[], limit: number) {
  return trx
    .updateTable('live_sessions')
    .set({ announced_at: now })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('live_sessions as s')
        .innerJoin('courses as c', 'c.id', 's.course_id')
        .select('s.id')
        .where('s.announced_at', 'is', null)
        .where('s.cancelled_at', 'is', null)
        .where('s.starts_at', '>', now)
        .where('c.status', 'not in', [...hiddenStatuses])
        .orderBy('s.starts_at')
        .limit(limit),
    )
    .where('announced_at', 'is', null)
    .returning(['id', 'course_id'])
    .execute()
}

/** Who opened the join link, and when first (the host's attendance list). */
export function attendanceOf(db: DB, id: string) {
  return db
    .selectFrom('live_attendance as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['u.first_name', 'u.last_name', 'u.email', 'a.first_joined_at', 'a.joins'])
    .where('a.session_id', '=', id)
    .orderBy('a.first_joined_at')
    .execute()
}

export async function recordJoin(db: DB, id: string, userId: string) {
  const at = clock.now()
  await db
    .insertInto('live_attendance')
    .values({ session_id: id, user_id: userId, first_joined_at: at, last_joined_at: at })
    .onConflict((oc) =>
      oc
        .columns(['session_id', 'user_id'])
        .doUpdateSet({ last_joined_at: at, joins: sql<number>`live_attendance.joins + 1` }),
    )
    .execute()
}

/**
 * Claims the reminders due (sessions starting within the hour, seat holders not yet reminded): each claimed once,
 * however often or on however many workers the job runs.
 */
export function claimDueReminders(trx: DB, now: Date, withinMinutes: number) {
  const until = new Date(now.getTime() + withinMinutes * 60_000)
  return trx
    .updateTable('live_registrations as r')
    .from('live_sessions as s')
    .set({ reminded_at: now })
    .whereRef('s.id', '=', 'r.session_id')
    .where('r.status', '=', 'registered')
    .where('r.reminded_at', 'is', null)
    .where('s.cancelled_at', 'is', null)
    .where('s.starts_at', '>', now)
    .where('s.starts_at', '<=', until)
    .returning(['r.session_id', 'r.user_id'])
    .execute()
}

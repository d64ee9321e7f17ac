// Mails of live sessions (issue 34), queued in the outbox in the change's transaction: the invitation (with its .ics,
// METHOD:REQUEST), its update on a reschedule (a higher SEQUENCE), the cancellation (METHOD:CANCEL), a waitlist
// notice and its news (moved, cancelled: no .ics, they hold no seat), the reminder an hour before, and the
// announcement to a course's holders (decision 0142). The join link is never in a mail: members open
// /live/<id>/join.
import { formatDate } from '../../src-shared/dates.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { courseNewsEnding } from '../mail/course-news.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { courseNewsContacts, existingUserContact } from '../users/contact.ts'
import { invitationIcs } from './calendar.ts'

const base = (publicUrl: string) => publicUrl.replace(/\/$/, '')
export const livePage = (publicUrl: string) => `${base(publicUrl)}/live`

/** 'Thursday, 10 December 2026 at 18:00 (Europe/Paris)': the start on the session's own clock. */
const whenText = (startsAt: Date, zone: string) => `${formatDate(startsAt, 'localDayTime', zone)} (${zone})`

async function loadSession(trx: DB, sessionId: string) {
  return trx
    .selectFrom('live_sessions as s')
    .innerJoin('users as h', 'h.id', 's.host_id')
    .leftJoin('courses as c', 'c.id', 's.course_id')
    .select([
      'c.title as course_title',
      's.id',
      's.title',
      's.description',
      's.starts_at',
      's.duration_minutes',
      's.time_zone',
      's.sequence',
      'h.first_name as host_first',
      'h.last_name as host_last',
    ])
    .where('s.id', '=', sessionId)
    .executeTakeFirstOrThrow()
}

export type InvitationKind = 'invitation' | 'update' | 'cancel'

/**
 * Why a cancellation is sent: the member gave up their seat ('member'), the host cancelled the session itself
 * ('session'), or the server freed the seat, `because` completing the sentence ("because your Premium membership
 * ended"), which the member did not ask for.
 */
export type CancelCause = 'member' | 'session' | { because: string }

/** The invitation, its update or its cancellation (for `cause`), with the .ics, to one member. */
export async function sendInvitation(
  trx: DB,
  sessionId: string,
  userId: string,
  kind: InvitationKind,
  publicUrl: string,
  cause: CancelCause = 'member',
) {
  const [session, user] = await Promise.all([loadSession(trx, sessionId), existingUserContact(trx, userId)])
  const method = kind === 'cancel' ? 'CANCEL' : 'REQUEST'
  const hostName = [session.host_first, session.host_last].filter(Boolean).join(' ') || 'SkillForge'
  const ics = invitationIcs(
    {
      sessionId: session.id,
      title: session.title,
      description: session.description,
      startsAt: session.starts_at,
      durationMinutes: session.duration_minutes,
      timeZone: session.time_zone,
      sequence: session.sequence,
      url: livePage(publicUrl),
      organizer: { name: hostName, email: `live@${new URL(publicUrl).hostname}` },
      attendee: { name: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email, email: user.email },
      host: new URL(publicUrl).hostname,
    },
    method,
    clock.now(),
  )
  const when = whenText(session.starts_at, session.time_zone)
  const subject = {
    invitation: `You're registered: ${session.title}`,
    update: `Updated: ${session.title} is now ${when}`,
    cancel: `Cancelled: ${session.title}`,
  }[kind]
  const lead = {
    invitation: `You have a seat at the live session “${session.title}”, ${when}.`,
    update: `The live session “${session.title}” has changed. It is now ${when}.`,
    cancel:
      cause === 'session'
        ? sessionCancelled(session.title, when)
        : cause === 'member'
          ? `The live session “${session.title}” (${when}) is cancelled for you.`
          : `Your seat at the live session “${session.title}” (${when}) is cancelled ${cause.because}.`,
  }[kind]
  const join =
    kind === 'cancel'
      ? ''
      : `\n\nThe join link opens on ${livePage(publicUrl)} 15 minutes before the start. The attached invitation adds it to your calendar.`
  await enqueueMail(trx, {
    kind: `live_${kind}`,
    to: user.email,
    subject,
    text: `Hi ${user.first_name || 'there'},\n\n${lead}${join}\n`,
    calendar: { ics, method },
  })
}

export async function sendWaitlisted(trx: DB, sessionId: string, userId: string, publicUrl: string) {
  const [session, user] = await Promise.all([loadSession(trx, sessionId), existingUserContact(trx, userId)])
  await enqueueMail(trx, {
    kind: 'live_waitlisted',
    to: user.email,
    subject: `You're on the waitlist: ${session.title}`,
    text: `Hi ${user.first_name || 'there'},\n\nEvery seat at “${session.title}” (${whenText(session.starts_at, session.time_zone)}) is taken. You're on the waitlist: if a seat frees up, it is yours and we send you the invitation.\n\n${livePage(publicUrl)}\n`,
  })
}

/** The session itself is off, not only someone's seat. */
const sessionCancelled = (title: string, when: string) =>
  `The host has cancelled the live session “${title}” (${when}). It will not take place.`

/**
 * News of a session to a member on its waitlist: it moved (or changed), or the host cancelled it. No .ics: they were
 * never sent an invitation, which comes with a seat.
 */
export async function sendWaitlistNews(
  trx: DB,
  sessionId: string,
  userId: string,
  kind: 'update' | 'cancel',
  publicUrl: string,
) {
  const [session, user] = await Promise.all([loadSession(trx, sessionId), existingUserContact(trx, userId)])
  const when = whenText(session.starts_at, session.time_zone)
  const text =
    kind === 'cancel'
      ? `${sessionCancelled(session.title, when)} Your place on its waitlist is cancelled with it.`
      : `The live session “${session.title}” has changed. It is now ${when}, ${session.duration_minutes} minutes. You're still on the waitlist: if a seat frees up, it is yours and we send you the invitation.\n\n${livePage(publicUrl)}`
  await enqueueMail(trx, {
    kind: `live_waitlist_${kind}`,
    to: user.email,
    subject: kind === 'cancel' ? `Cancelled: ${session.title}` : `Updated: ${session.title} is now ${when}`,
    text: `Hi ${user.first_name || 'there'},\n\n${text}\n`,
  })
}

/**
 * A course's holders told, once, that its instructors scheduled a session (decision 0142): what, when, and where to
 * register. `siteUrl` is the course's site (its school's own domain when it has one). The session and the addresses
 * are read once for all of them.
 */
export async function sendAnnouncements(
  trx: DB,
  announced: { sessionId: string; courseId: string },
  userIds: readonly string[],
  siteUrl: string,
) {
  const session = await loadSession(trx, announced.sessionId)
  const course = session.course_title ? ` for “${session.course_title}”` : ''
  const what = `A live session is scheduled${course}: “${session.title}”, ${whenText(session.starts_at, session.time_zone)}, ${session.duration_minutes} minutes. As a learner of the course you may attend: register on ${livePage(siteUrl)} while seats are left.`
  let sent = 0
  for (let start = 0; start < userIds.length; start += 1000) {
    for (const user of await courseNewsContacts(trx, userIds.slice(start, start + 1000), announced.courseId)) {
      const ending = await courseNewsEnding(trx, { userId: user.id, courseId: announced.courseId }, siteUrl)
      await enqueueMail(trx, {
        kind: 'live_announced',
        to: user.email,
        subject: `Live session${course}: ${session.title}`,
        text: `Hi ${user.first_name || 'there'},\n\n${what}\n${ending.footer}`,
        listUnsubscribe: ending.listUnsubscribe,
      })
      sent += 1
    }
  }
  return sent
}

export async function sendReminder(trx: DB, sessionId: string, userId: string, publicUrl: string) {
  const [session, user] = await Promise.all([loadSession(trx, sessionId), existingUserContact(trx, userId)])
  await enqueueMail(trx, {
    kind: 'live_reminder',
    to: user.email,
    subject: `Starting in an hour: ${session.title}`,
    text: `Hi ${user.first_name || 'there'},\n\n“${session.title}” starts ${whenText(session.starts_at, session.time_zone)}. The join link opens on ${livePage(publicUrl)} 15 minutes before the start.\n`,
  })
}

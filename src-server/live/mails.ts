// Mails of live sessions (issue 34), queued in the outbox in the change's transaction: the invitation (with its .ics,
// METHOD:REQUEST), its update on a reschedule (a higher SEQUENCE), the cancellation (METHOD:CANCEL), a waitlist
// notice, and the reminder an hour before. The join link is never in a mail: members open /live/<id>/join.
import { formatDate } from '../../src-shared/dates.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { existingUserContact } from '../users/contact.ts'
import { invitationIcs } from './calendar.ts'

const base = (publicUrl: string) => publicUrl.replace(/\/$/, '')
export const livePage = (publicUrl: string) => `${base(publicUrl)}/live`

/** 'Thursday, 10 December 2026 at 18:00 (Europe/Paris)': the start on the session's own clock. */
const whenText = (startsAt: Date, zone: string) => `${formatDate(startsAt, 'localDayTime', zone)} (${zone})`

async function loadSession(trx: DB, sessionId: string) {
  return trx
    .selectFrom('live_sessions as s')
    .innerJoin('users as h', 'h.id', 's.host_id')
    .select([
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
 * The invitation, its update or its cancellation, with the .ics, to one member. `why` completes a cancellation's
 * sentence: "because your Premium membership ended" (a seat freed by the server, which the member did not ask for).
 */
export async function sendInvitation(
  trx: DB,
  sessionId: string,
  userId: string,
  kind: InvitationKind,
  publicUrl: string,
  why?: string,
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
    cancel: why
      ? `Your seat at the live session “${session.title}” (${when}) is cancelled ${why}.`
      : `The live session “${session.title}” (${when}) is cancelled for you.`,
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

export async function sendReminder(trx: DB, sessionId: string, userId: string, publicUrl: string) {
  const [session, user] = await Promise.all([loadSession(trx, sessionId), existingUserContact(trx, userId)])
  await enqueueMail(trx, {
    kind: 'live_reminder',
    to: user.email,
    subject: `Starting in an hour: ${session.title}`,
    text: `Hi ${user.first_name || 'there'},\n\n“${session.title}” starts ${whenText(session.starts_at, session.time_zone)}. The join link opens on ${livePage(publicUrl)} 15 minutes before the start.\n`,
  })
}

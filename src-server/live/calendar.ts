// The .ics invitation of a live session, built with ical-generator: METHOD REQUEST (an invitation or its update,
// SEQUENCE raised at each reschedule) or CANCEL; the start and end in the session's time zone (TZID) with that zone's
// VTIMEZONE, made from the runtime's time-zone data around the session's date.
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator'
import { offsetChanges, offsetMinutesAt, wallClockAt } from './zoned-time.ts'

export interface InvitationEvent {
  sessionId: string
  title: string
  description: string
  startsAt: Date
  durationMinutes: number
  timeZone: string
  sequence: number
  /** The session's page (never the join link itself: that opens through /live/<id>/join). */
  url: string
  organizer: { name: string; email: string }
  attendee: { name: string; email: string }
  /** The domain of the event's UID (the site's host). */
  host: string
}

const two = (n: number) => String(Math.abs(n)).padStart(2, '0')
const offsetText = (minutes: number) => `${minutes < 0 ? '-' : '+'}${two(Math.trunc(minutes / 60))}${two(minutes % 60)}`
const localText = (zone: string, ms: number, offsetMinutes?: number) => {
  // A transition's DTSTART is the wall clock just before it, in the offset in force before it (RFC 5545 §3.6.5).
  const w = offsetMinutes === undefined ? wallClockAt(zone, ms) : wallClockAt('UTC', ms + offsetMinutes * 60_000)
  return `${w.year}${two(w.month)}${two(w.day)}T${two(w.hour)}${two(w.minute)}${two(w.second)}`
}

/** A VTIMEZONE for `zone` covering the years around `aroundMs` (enough for any session and its updates). */
export function vtimezone(zone: string, aroundMs: number): string {
  const year = new Date(aroundMs).getUTCFullYear()
  const fromMs = Date.UTC(year - 1, 0, 1)
  const toMs = Date.UTC(year + 2, 0, 1)
  const changes = offsetChanges(zone, fromMs, toMs)
  const standard = Math.min(offsetMinutesAt(zone, fromMs), ...changes.map((c) => c.to))
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`]
  const first = offsetMinutesAt(zone, fromMs)
  const part = (kind: 'STANDARD' | 'DAYLIGHT', start: string, from: number, to: number) =>
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${start}`,
      `TZOFFSETFROM:${offsetText(from)}`,
      `TZOFFSETTO:${offsetText(to)}`,
      `END:${kind}`,
    )
  part(first > standard ? 'DAYLIGHT' : 'STANDARD', localText(zone, fromMs), first, first)
  for (const change of changes) {
    part(
      change.to > standard ? 'DAYLIGHT' : 'STANDARD',
      localText(zone, change.atMs, change.from),
      change.from,
      change.to,
    )
  }
  lines.push('END:VTIMEZONE')
  return `${lines.join('\r\n')}\r\n`
}

/**
 * An instant as ical-generator reads a zoned date-time object (its luxon adapter: toJSDate, setZone, toFormat), so
 * DTSTART is written as the wall clock in the session's zone whatever zone this process runs in.
 */
function zoned(instant: Date, zone = 'UTC') {
  const w = () => wallClockAt(zone, instant.getTime())
  return {
    isValid: true,
    toJSDate: () => new Date(instant),
    toJSON: () => instant.toISOString(),
    setZone: (next: string) => zoned(instant, next),
    toFormat(format: string) {
      const c = w()
      if (format === 'yyyyLLdd') return `${c.year}${two(c.month)}${two(c.day)}`
      if (format === 'HHmmss') return `${two(c.hour)}${two(c.minute)}${two(c.second)}`
      throw new Error(`Unsupported format ${format}`)
    },
  }
}

export function invitationIcs(event: InvitationEvent, method: 'REQUEST' | 'CANCEL', stamp: Date): string {
  const calendar = ical({
    prodId: { company: 'SkillForge', product: 'Live sessions', language: 'EN' },
    method: method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    // No calendar-wide zone (DTSTAMP stays UTC): the generator writes the VTIMEZONE of the event's zone.
    timezone: { name: '', generator: (zone) => vtimezone(zone, event.startsAt.getTime()) },
  })
  const end = new Date(event.startsAt.getTime() + event.durationMinutes * 60_000)
  calendar.createEvent({
    id: `live-${event.sessionId}@${event.host}`,
    sequence: event.sequence,
    stamp,
    // biome-ignore lint/suspicious/noExplicitAny: a zoned date-time as ical-generator's luxon adapter reads it
    start: zoned(event.startsAt) as any,
    // biome-ignore lint/suspicious/noExplicitAny: as above
    end: zoned(end) as any,
    timezone: event.timeZone,
    summary: event.title,
    description: `${event.description}\n\n${event.url}`.trim(),
    url: event.url,
    status: method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: event.organizer,
    attendees: [{ name: event.attendee.name, email: event.attendee.email, rsvp: false }],
  })
  return calendar.toString()
}

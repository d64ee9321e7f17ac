// Wall-clock times in an IANA time zone, with the runtime's own time-zone data (Intl): a session is scheduled as
// "18:00 in Europe/Paris" and stored as the instant that is; invitations carry the zone's rules (VTIMEZONE).

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterOf(zone: string) {
  let found = formatters.get(zone)
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(zone, found)
  }
  return found
}

export interface WallClock {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

/** The wall clock in `zone` at an instant. */
export function wallClockAt(zone: string, instantMs: number): WallClock {
  const parts: Record<string, number> = {}
  for (const part of formatterOf(zone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value)
  }
  return {
    year: parts.year as number,
    month: parts.month as number,
    day: parts.day as number,
    hour: parts.hour as number,
    minute: parts.minute as number,
    second: parts.second as number,
  }
}

/** The zone's offset from UTC at an instant, in minutes (Europe/Paris in winter: 60). */
export function offsetMinutesAt(zone: string, instantMs: number): number {
  const w = wallClockAt(zone, instantMs)
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
  return Math.round((asUtc - Math.floor(instantMs / 1000) * 1000) / 60_000)
}

/**
 * The instant a wall-clock time ('2026-12-10T18:00') is in `zone`, read as calendars read the invitation's local
 * start (RFC 5545 §3.3.5): a time shown twice (clocks going back) is its first occurrence, and a time skipped by a
 * clock change (02:30 on the night clocks go forward) is read with the offset before the change: 02:30 in New York on
 * 2026-03-08 is 02:30 EST, the instant the clocks show 03:30 EDT. So the server's start is the calendar's, everywhere.
 */
export function zonedToUtc(local: string, zone: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local)
  if (!match) throw new RangeError('Expected YYYY-MM-DDTHH:mm')
  const [, y, mo, d, h, mi] = match.map(Number) as number[]
  const guess = Date.UTC(y as number, (mo as number) - 1, d, h, mi)
  // The offsets in force within a day either side (every zone's offset is under 15 hours, and a clock change moves it
  // by hours at most): each that shows this wall clock gives one reading of it.
  const offsets = [...new Set(NEARBY_HOURS.map((hours) => offsetMinutesAt(zone, guess + hours * 3_600_000)))]
  const readings = offsets
    .map((offset) => guess - offset * 60_000)
    .filter((instant) => offsetMinutesAt(zone, instant) * 60_000 === guess - instant)
  if (readings.length > 0) return new Date(Math.min(...readings))
  // No offset shows it: the clocks skipped it going forward, so it is read with the offset before the change (the
  // smaller one, on either side of UTC).
  return new Date(guess - Math.min(...offsets) * 60_000)
}

const NEARBY_HOURS = [-24, -18, -12, -6, 0, 6, 12, 18, 24]

/** '2026-12-10T18:00': the wall clock of an instant in `zone` (for the edit form). */
export function utcToLocalInput(instant: Date, zone: string): string {
  const w = wallClockAt(zone, instant.getTime())
  const two = (n: number) => String(n).padStart(2, '0')
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`
}

/** The instants in [fromMs, toMs) where the zone's offset changes (found day by day, then to the minute). */
export function offsetChanges(
  zone: string,
  fromMs: number,
  toMs: number,
): { atMs: number; from: number; to: number }[] {
  const DAY = 86_400_000
  const changes: { atMs: number; from: number; to: number }[] = []
  let previous = offsetMinutesAt(zone, fromMs)
  for (let t = fromMs + DAY; t < toMs + DAY; t += DAY) {
    const current = offsetMinutesAt(zone, t)
    if (current === previous) continue
    let low = t - DAY
    let high = t
    while (high - low > 60_000) {
      const middle = low + Math.floor((high - low) / 120_000) * 60_000
      if (offsetMinutesAt(zone, middle) === previous) low = middle
      else high = middle
    }
    changes.push({ atMs: high, from: previous, to: current })
    previous = current
  }
  return changes
}

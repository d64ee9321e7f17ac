// src-server/live/zoned-time.ts: a live session's start typed as a wall clock in its time zone, stored as an instant.
// A time the clocks skip going forward is read with the offset before the change (as calendars read it, RFC 5545), on
// either side of UTC: 02:30 in New York on the spring-forward night is 02:30 EST, which the clocks show as 03:30 EDT
// (it was read as 01:30 EST, an hour early, in every zone west of UTC). A time the clocks show twice going back is
// read as it was before that fix.
import { describe, expect, it } from 'vitest'
import { offsetChanges, offsetMinutesAt, utcToLocalInput, zonedToUtc } from '../../src-server/live/zoned-time.ts'

const MINUTE = 60_000

describe('a start the clocks skip (spring forward)', () => {
  // [zone, typed start, the instant, what the zone's clocks show then]
  const gaps: [string, string, string, string][] = [
    ['America/New_York', '2026-03-08T02:30', '2026-03-08T07:30:00.000Z', '2026-03-08T03:30'],
    ['America/Los_Angeles', '2026-03-08T02:30', '2026-03-08T10:30:00.000Z', '2026-03-08T03:30'],
    ['America/St_Johns', '2026-03-08T02:30', '2026-03-08T06:00:00.000Z', '2026-03-08T03:30'],
    ['America/Santiago', '2026-09-06T00:30', '2026-09-06T04:30:00.000Z', '2026-09-06T01:30'],
    ['Europe/London', '2026-03-29T01:30', '2026-03-29T01:30:00.000Z', '2026-03-29T02:30'],
    ['Europe/Paris', '2026-03-29T02:30', '2026-03-29T01:30:00.000Z', '2026-03-29T03:30'],
    ['Australia/Sydney', '2026-10-04T02:30', '2026-10-03T16:30:00.000Z', '2026-10-04T03:30'],
    ['Australia/Lord_Howe', '2026-10-04T02:15', '2026-10-03T15:45:00.000Z', '2026-10-04T02:45'],
    ['Pacific/Auckland', '2026-09-27T02:30', '2026-09-26T14:30:00.000Z', '2026-09-27T03:30'],
  ]

  it.each(gaps)('%s %s is read with the offset before the change', (zone, local, instant, shown) => {
    const start = zonedToUtc(local, zone)
    expect(start.toISOString()).toBe(instant)
    expect(utcToLocalInput(start, zone)).toBe(shown)
    // Later than the typed wall clock by the change, never earlier.
    expect(shown > local).toBe(true)
  })

  it('in every zone, 2026–2027: a skipped time with the offset before its change, any other time reads back', () => {
    const pad = (n: number) => String(n).padStart(2, '0')
    let skipped = 0
    for (const zone of Intl.supportedValuesOf('timeZone')) {
      for (const change of offsetChanges(zone, Date.UTC(2026, 0, 1), Date.UTC(2028, 0, 1))) {
        // Wall clocks from 2 hours before to 2 hours after the change, every 15 minutes.
        const wallAtChange = change.atMs + change.from * MINUTE
        for (let wall = wallAtChange - 120 * MINUTE; wall <= wallAtChange + 120 * MINUTE; wall += 15 * MINUTE) {
          const w = new Date(wall)
          const local = `${w.getUTCFullYear()}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())}T${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}`
          const start = zonedToUtc(local, zone)
          const exists = [change.from, change.to].some(
            (offset) => offsetMinutesAt(zone, wall - offset * MINUTE) === offset,
          )
          if (exists) {
            expect(utcToLocalInput(start, zone), `${zone} ${local}`).toBe(local)
          } else {
            skipped++
            expect(start.getTime(), `${zone} ${local}`).toBe(wall - change.from * MINUTE)
          }
        }
      }
    }
    expect(skipped).toBeGreaterThan(100)
  })
})

describe('a start the clocks show twice (fall back): its first occurrence, as calendars read it', () => {
  // RFC 5545 §3.3.5: a local time that occurs twice refers to the first occurrence, on either side of UTC.
  const overlaps: [string, string, string][] = [
    ['America/New_York', '2026-11-01T01:30', '2026-11-01T05:30:00.000Z'],
    ['America/Los_Angeles', '2026-11-01T01:30', '2026-11-01T08:30:00.000Z'],
    ['Europe/London', '2026-10-25T01:30', '2026-10-25T00:30:00.000Z'],
    ['Europe/Paris', '2026-10-25T02:30', '2026-10-25T00:30:00.000Z'],
    ['Australia/Sydney', '2026-04-05T02:30', '2026-04-04T15:30:00.000Z'],
    ['Pacific/Auckland', '2026-04-05T02:30', '2026-04-04T13:30:00.000Z'],
  ]

  it.each(overlaps)('%s %s', (zone, local, instant) => {
    const start = zonedToUtc(local, zone)
    expect(start.toISOString()).toBe(instant)
    expect(utcToLocalInput(start, zone)).toBe(local)
  })
})

describe('ordinary starts', () => {
  it('are the instant the zone shows them, beside a change and away from one', () => {
    expect(zonedToUtc('2026-03-08T01:59', 'America/New_York').toISOString()).toBe('2026-03-08T06:59:00.000Z')
    expect(zonedToUtc('2026-03-08T03:00', 'America/New_York').toISOString()).toBe('2026-03-08T07:00:00.000Z')
    expect(zonedToUtc('2026-03-29T01:59', 'Europe/Paris').toISOString()).toBe('2026-03-29T00:59:00.000Z')
    expect(zonedToUtc('2026-03-29T03:00', 'Europe/Paris').toISOString()).toBe('2026-03-29T01:00:00.000Z')
    expect(zonedToUtc('2026-12-10T18:00', 'Europe/Paris').toISOString()).toBe('2026-12-10T17:00:00.000Z')
    expect(zonedToUtc('2026-07-10T18:00', 'Asia/Kolkata').toISOString()).toBe('2026-07-10T12:30:00.000Z')
    expect(zonedToUtc('2026-07-10T18:00', 'UTC').toISOString()).toBe('2026-07-10T18:00:00.000Z')
    expect(() => zonedToUtc('2026-07-10 18:00', 'UTC')).toThrow(RangeError)
  })
})

// src-shared/dates.ts: the one date writer of the screens, the membership sentences and the server's e-mails
// (decision 0095). Its long day is written without Intl (a phone's first Intl formatter is slow while a page
// hydrates): the same text as Intl's en-GB long date in UTC.
import { describe, expect, it } from 'vitest'
import { formatDate, formatMonth } from '../../src-shared/dates.ts'

describe('formatDate', () => {
  it('writes the long day as Intl’s en-GB long date in UTC does, for every day and out of range too', () => {
    const intl = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' })
    const dates: (string | Date)[] = ['2026-12-01T00:00:00Z', '2026-11-30T23:59:59.999Z', '2024-02-29T12:00:00Z']
    for (let t = Date.UTC(1970, 0, 1); t < Date.UTC(2100, 0, 1); t += 86_400_000 * 37 + 3_600_000 * 5)
      dates.push(new Date(t))
    dates.push('0999-06-01T00:00:00Z', '+010000-01-01T00:00:00Z')
    for (const date of dates) expect(formatDate(date), String(date)).toBe(intl.format(new Date(date)))
    expect(formatDate('2026-12-01T10:00:00.000Z')).toBe('1 December 2026')
    expect(() => formatDate('not a date')).toThrow(RangeError)
  })

  it('writes a local style in the zone a server passes for its reader', () => {
    const start = '2026-12-10T17:00:00.000Z'
    expect(formatDate(start, 'localDayTime', 'Europe/Paris')).toBe('Thursday, 10 December 2026 at 18:00')
    expect(formatDate(start, 'localDayTime', 'America/New_York')).toBe('Thursday, 10 December 2026 at 12:00')
    expect(formatDate(start, 'localDayTime', 'Europe/Paris')).toBe('Thursday, 10 December 2026 at 18:00')
  })
})

describe('formatMonth', () => {
  it('writes a server month (YYYY-MM) as a month a person reads, never as a two-digit year and month', () => {
    expect(formatMonth('2026-01')).toBe('Jan 2026')
    expect(formatMonth('2027-02')).toBe('Feb 2027')
    expect(formatMonth('2026-09')).toBe('Sep 2026')
    expect(formatMonth('2026-12', 'long')).toBe('December 2026')
    // As Intl's en-GB long month and year in UTC, for every month.
    const intl = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' })
    for (let month = 1; month <= 12; month += 1) {
      const key = `2026-${String(month).padStart(2, '0')}`
      expect(formatMonth(key, 'long')).toBe(intl.format(new Date(`${key}-01T00:00:00Z`)))
    }
    // Not a month: as it came.
    expect(formatMonth('2026-13')).toBe('2026-13')
    expect(formatMonth('soon')).toBe('soon')
  })
})

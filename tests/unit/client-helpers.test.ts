// Small client helpers shared by several screens: page numbers of the one Pagination, avatar initials, studio dates,
// counts and course lengths in words.
import { describe, expect, it } from 'vitest'
import { lastActive } from '../../src-client/components/admin/format.ts'
import { hoursOfContent } from '../../src-client/components/course/PurchaseBox.tsx'
import { pageNumbers } from '../../src-client/components/ui/Pagination.tsx'
import { countOf } from '../../src-client/lib/format.ts'
import { initials } from '../../src-client/lib/initials.ts'
import { formatDate } from '../../src-shared/dates.ts'

describe('pageNumbers', () => {
  it('lists every page of a short list', () => {
    expect(pageNumbers(2, 4)).toEqual([1, 2, 3, 4])
  })
  it('keeps the first, the last and two around the current page, with gaps between', () => {
    expect(pageNumbers(6, 12)).toEqual([1, 'gap', 4, 5, 6, 7, 8, 'gap', 12])
    expect(pageNumbers(1, 12)).toEqual([1, 2, 3, 'gap', 12])
  })
})

describe('initials', () => {
  it('takes up to two first letters of the name', () => {
    expect(initials('ada lovelace')).toBe('AL')
    expect(initials('  Mary  Ann Smith ')).toBe('MA')
    expect(initials('Cher')).toBe('C')
  })
  it("falls back to the e-mail's first letter when there is no name", () => {
    expect(initials(' ', 'zed@example.test')).toBe('Z')
    expect(initials('')).toBe('')
  })
})

describe('formatDate', () => {
  // 23:30 UTC: the day after in a time zone east of UTC, so a UTC style must not follow the machine's zone.
  const late = '2026-11-29T23:30:00.000Z'
  it('writes the money dates in UTC, in the studio styles', () => {
    expect(formatDate(late)).toBe('29 November 2026')
    expect(formatDate(new Date(late), 'medium')).toBe('29 Nov 2026')
    expect(formatDate(late, 'longTime')).toBe('29 November 2026 at 23:30')
    expect(formatDate(late, 'mediumTime')).toBe('29 Nov 2026, 23:30 UTC')
  })
  it("writes a local time in the reader's zone", () => {
    const local = new Date(late)
    expect(formatDate(late, 'localTime')).toContain(String(local.getMinutes()).padStart(2, '0'))
    expect(formatDate(late, 'localTime')).toMatch(/\d{2}:\d{2}:\d{2}$/)
    const day = new Intl.DateTimeFormat('en-GB', { weekday: 'long' }).format(local)
    expect(formatDate(late, 'localDayTime')).toMatch(new RegExp(`^${day}, \\d{1,2} \\w+ 2026 at \\d{2}:\\d{2}$`))
  })
})

describe('counts and durations in words', () => {
  it('says one lesson and two lessons', () => {
    expect(countOf(1, 'lesson')).toBe('1 lesson')
    expect(countOf(2, 'lesson')).toBe('2 lessons')
    expect(countOf(0, 'person', 'people')).toBe('0 people')
  })
  it('gives a course under an hour in minutes and a longer one in hours to a tenth', () => {
    expect(hoursOfContent(13)).toBe('13 minutes')
    expect(hoursOfContent(1)).toBe('1 minute')
    expect(hoursOfContent(60)).toBe('1 hour')
    expect(hoursOfContent(90)).toBe('1.5 hours')
    expect(hoursOfContent(754)).toBe('12.6 hours')
  })
})

describe('lastActive', () => {
  const now = Date.parse('2026-12-01T12:00:00Z')
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString()
  it('says just now, then minutes, hours and days, each in the singular when one', () => {
    expect(lastActive(ago(2), now)).toBe('Just now')
    expect(lastActive(ago(7), now)).toBe('7 minutes ago')
    expect(lastActive(ago(60), now)).toBe('1 hour ago')
    expect(lastActive(ago(150), now)).toBe('2 hours ago')
    expect(lastActive(ago(24 * 60), now)).toBe('1 day ago')
    expect(lastActive(null, now)).toBe('Never')
    expect(lastActive(ago(40 * 24 * 60), now)).toBe('22 Oct 2026') // a month on: formatDate's medium day
  })
})

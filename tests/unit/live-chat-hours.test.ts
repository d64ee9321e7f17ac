// Live chat's staffed hours (decision 0099): Monday to Friday, 9:00 AM to 5:00 PM GMT, as /contact says; when it
// opens next; LIVE_CHAT_HOURS's shape.
import { describe, expect, it } from 'vitest'
import {
  chatOpenAt,
  describeChatHours,
  describeOpening,
  nextChatOpening,
  parseChatHours,
  STAFFED_CHAT_HOURS,
} from '../../src-shared/live-chat.ts'

const at = (iso: string) => new Date(iso)

describe('the staffed hours', () => {
  it('are Monday to Friday, from 9:00 up to but not including 17:00 GMT', () => {
    expect(chatOpenAt(STAFFED_CHAT_HOURS, at('2026-12-07T09:00:00Z'))).toBe(true) // Monday
    expect(chatOpenAt(STAFFED_CHAT_HOURS, at('2026-12-07T08:59:59Z'))).toBe(false)
    expect(chatOpenAt(STAFFED_CHAT_HOURS, at('2026-12-11T16:59:00Z'))).toBe(true) // Friday
    expect(chatOpenAt(STAFFED_CHAT_HOURS, at('2026-12-11T17:00:00Z'))).toBe(false)
    expect(chatOpenAt(STAFFED_CHAT_HOURS, at('2026-12-12T12:00:00Z'))).toBe(false) // Saturday
    expect(chatOpenAt(STAFFED_CHAT_HOURS, at('2026-12-13T12:00:00Z'))).toBe(false) // Sunday
  })

  it('are GMT all year: a summer morning at 9:30 GMT is open whatever the clocks in London say', () => {
    expect(chatOpenAt(STAFFED_CHAT_HOURS, at('2026-07-01T09:30:00Z'))).toBe(true)
    expect(chatOpenAt(STAFFED_CHAT_HOURS, at('2026-07-01T08:30:00Z'))).toBe(false)
  })

  it('say when they open next: later that day, the next weekday, or Monday after a Friday evening', () => {
    expect(nextChatOpening(STAFFED_CHAT_HOURS, at('2026-12-07T06:00:00Z')).toISOString()).toBe(
      '2026-12-07T09:00:00.000Z',
    )
    expect(nextChatOpening(STAFFED_CHAT_HOURS, at('2026-12-08T18:00:00Z')).toISOString()).toBe(
      '2026-12-09T09:00:00.000Z',
    )
    const weekend = nextChatOpening(STAFFED_CHAT_HOURS, at('2026-12-11T17:00:00Z'))
    expect(weekend.toISOString()).toBe('2026-12-14T09:00:00.000Z')
    expect(describeOpening(weekend)).toBe('Monday at 9:00 AM GMT')
    expect(describeOpening(at('2026-12-14T13:30:00Z'))).toBe('Monday at 1:30 PM GMT')
    expect(describeOpening(at('2026-12-14T00:05:00Z'))).toBe('Monday at 12:05 AM GMT')
  })
})

describe('LIVE_CHAT_HOURS', () => {
  it('reads a day range and GMT hours', () => {
    expect(parseChatHours('Mon-Fri 09:00-17:00')).toEqual(STAFFED_CHAT_HOURS)
    expect(parseChatHours('mon-sun 00:00-24:00')).toEqual({
      days: [1, 2, 3, 4, 5, 6, 0],
      openMinute: 0,
      closeMinute: 1440,
    })
    expect(parseChatHours('Sat 10:00-14:30')).toEqual({ days: [6], openMinute: 600, closeMinute: 870 })
    expect(parseChatHours('Fri-Mon 08:00-20:00')?.days).toEqual([5, 6, 0, 1])
  })

  it('refuses anything else', () => {
    for (const text of ['', 'always', 'Mon-Fri', 'Mon-Fri 9:00-17:00', 'Mon-Fri 17:00-09:00', 'Xyz 09:00-17:00']) {
      expect(parseChatHours(text)).toBeNull()
    }
    expect(parseChatHours('Mon-Fri 09:60-17:00')).toBeNull()
    expect(parseChatHours('Mon-Fri 09:00-24:30')).toBeNull()
  })
})

describe('the hours in words (/contact states the configured hours)', () => {
  it('the default as the spec words it', () => {
    expect(describeChatHours(STAFFED_CHAT_HOURS)).toEqual({
      days: 'Monday-Friday',
      times: '9:00 AM - 5:00 PM GMT',
      summary: 'Monday to Friday, 9:00 AM to 5:00 PM GMT',
    })
  })

  it('other hours as LIVE_CHAT_HOURS sets them', () => {
    const words = (text: string) => describeChatHours(parseChatHours(text) ?? STAFFED_CHAT_HOURS)
    expect(words('Mon-Sat 08:00-20:30')).toEqual({
      days: 'Monday-Saturday',
      times: '8:00 AM - 8:30 PM GMT',
      summary: 'Monday to Saturday, 8:00 AM to 8:30 PM GMT',
    })
    expect(words('Mon-Sun 00:00-24:00')).toEqual({
      days: 'Every day',
      times: 'All day (GMT)',
      summary: 'every day, all day (GMT)',
    })
    expect(words('Sat 12:00-24:00')).toEqual({
      days: 'Saturday',
      times: '12:00 PM - 12:00 AM GMT',
      summary: 'on Saturday, 12:00 PM to 12:00 AM GMT',
    })
    expect(words('Fri-Mon 09:00-17:00').days).toBe('Friday-Monday')
  })
})

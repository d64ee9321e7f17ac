// Live chat's staffed hours (decision 0099): by default "Monday-Friday, 9:00 AM - 5:00 PM GMT", as the spec's /contact
// says. Hours are in GMT (UTC) all year; LIVE_CHAT_HOURS may set others (e.g. a test server open every day), and
// /contact then states those (describeChatHours, served with the chat's availability).

/** Days the chat is staffed (0 Sunday … 6 Saturday) and the minutes of the day, GMT, it opens and closes. */
export interface ChatHours {
  days: number[]
  openMinute: number
  closeMinute: number
}

export const STAFFED_CHAT_HOURS: ChatHours = { days: [1, 2, 3, 4, 5], openMinute: 9 * 60, closeMinute: 17 * 60 }

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const DAY_KEYS = DAY_NAMES.map((name) => name.slice(0, 3).toLowerCase())

function minuteOf(text: string): number | null {
  const match = /^(\d{2}):(\d{2})$/.exec(text)
  if (!match) return null
  const minute = Number(match[1]) * 60 + Number(match[2])
  return Number(match[2]) < 60 && minute <= 24 * 60 ? minute : null
}

/** LIVE_CHAT_HOURS as the server and the jobs read it: unset (or unreadable, which the env check refuses) → undefined. */
export const chatHoursSetting = (text: string | undefined): ChatHours | undefined =>
  (text ? parseChatHours(text) : null) ?? undefined

/** Reads "Mon-Fri 09:00-17:00" (a day or a range of days, then GMT hours); null when it is not that shape. */
export function parseChatHours(text: string): ChatHours | null {
  const match = /^([a-z]{3})(?:-([a-z]{3}))?\s+(\d{2}:\d{2})-(\d{2}:\d{2})$/i.exec(text.trim())
  if (!match) return null
  const [, firstDay = '', lastDay = firstDay, opens = '', closes = ''] = match
  const first = DAY_KEYS.indexOf(firstDay.toLowerCase())
  const last = DAY_KEYS.indexOf(lastDay.toLowerCase())
  const openMinute = minuteOf(opens)
  const closeMinute = minuteOf(closes)
  if (first < 0 || last < 0 || openMinute === null || closeMinute === null || openMinute >= closeMinute) return null
  const days: number[] = []
  for (let day = first; ; day = (day + 1) % 7) {
    days.push(day)
    if (day === last) break
  }
  return { days, openMinute, closeMinute }
}

/** Whether the chat is staffed at that instant. */
export function chatOpenAt(hours: ChatHours, at: Date): boolean {
  const minute = at.getUTCHours() * 60 + at.getUTCMinutes()
  return hours.days.includes(at.getUTCDay()) && minute >= hours.openMinute && minute < hours.closeMinute
}

const DAY_MS = 24 * 60 * 60 * 1000

/** When the chat next opens after `at` (at a day's opening minute, GMT). */
export function nextChatOpening(hours: ChatHours, at: Date): Date {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate())
  for (let offset = 0; offset <= 7; offset++) {
    const opening = new Date(midnight + offset * DAY_MS + hours.openMinute * 60_000)
    if (opening > at && hours.days.includes(opening.getUTCDay())) return opening
  }
  return new Date(midnight + 7 * DAY_MS + hours.openMinute * 60_000) // not reached: every week has an open day
}

/** "9:00 AM", "5:30 PM", "12:00 AM" (midnight, also the end of a day open until 24:00). */
function clockTime(minuteOfDay: number): string {
  const hours = Math.floor(minuteOfDay / 60) % 24
  const minutes = String(minuteOfDay % 60).padStart(2, '0')
  const twelve = hours % 12 === 0 ? 12 : hours % 12
  return `${twelve}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`
}

/** "Monday at 9:00 AM GMT": when a closed chat opens again, as the page says it. */
export function describeOpening(opening: Date): string {
  const minute = opening.getUTCHours() * 60 + opening.getUTCMinutes()
  return `${DAY_NAMES[opening.getUTCDay()]} at ${clockTime(minute)} GMT`
}

/** The staffed hours in words, for /contact's details (`days`, `times`) and its FAQ (`summary`). */
export interface ChatHoursWords {
  /** "Monday-Friday", "Saturday", "Every day". */
  days: string
  /** "9:00 AM - 5:00 PM GMT", "All day (GMT)". */
  times: string
  /** "Monday to Friday, 9:00 AM to 5:00 PM GMT". */
  summary: string
}

/**
 * The hours as /contact states them: the default reads as the spec words it ("Monday-Friday", "9:00 AM - 5:00 PM
 * GMT"); LIVE_CHAT_HOURS's other hours read the same way, so the page never promises hours the chat does not keep.
 */
export function describeChatHours(hours: ChatHours): ChatHoursWords {
  const first = DAY_NAMES[hours.days[0] ?? 1] as string
  const last = DAY_NAMES[hours.days.at(-1) ?? 5] as string
  const allWeek = hours.days.length === 7
  const oneDay = hours.days.length === 1
  const allDay = hours.openMinute === 0 && hours.closeMinute === 24 * 60
  const opens = clockTime(hours.openMinute)
  const closes = clockTime(hours.closeMinute)
  return {
    days: allWeek ? 'Every day' : oneDay ? first : `${first}-${last}`,
    times: allDay ? 'All day (GMT)' : `${opens} - ${closes} GMT`,
    summary: `${allWeek ? 'every day' : oneDay ? `on ${first}` : `${first} to ${last}`}, ${allDay ? 'all day (GMT)' : `${opens} to ${closes} GMT`}`,
  }
}
export const CHAT_ENDED = 'This chat has ended; start a new one to write again'

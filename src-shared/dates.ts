// The one way a date is written for a person (decision 0095), on screens and in the server's e-mails and documents
// alike: en-GB words in fixed styles. Every style but the two 'local' ones is in UTC, the days the server counts in,
// so the server-rendered HTML, the hydrating render and an e-mail write the same text; a message's, a webhook
// delivery's or a live session's time is in the reader's own zone ('localTime', 'localDayTime'), which a server
// writing to someone passes in (a live session's mail: the session's zone). Its one variant is the client's
// useDateFormat (lib/local-date.ts): the catalogue's public dates in the visitor's own locale once the page has
// hydrated. A module of its own, out of lib/format.ts, which the home page loads: a module goes whole into the first
// visit's chunk.
import { MONTHS } from './numbers.ts'

const DATE_STYLES = {
  /** '29 November 2026' (UTC) */
  long: { dateStyle: 'long', timeZone: 'UTC' },
  /** '29 Nov 2026' (UTC) */
  medium: { dateStyle: 'medium', timeZone: 'UTC' },
  /** '29 November 2026 at 18:05' (UTC) */
  longTime: { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' },
  /** '29 Nov 2026, 18:05 UTC': a moment in a list (orders, sessions, deliveries, audit) */
  mediumTime: { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' },
  /** '29 Nov 2026, 18:05:09' in the reader's time zone */
  localTime: { dateStyle: 'medium', timeStyle: 'medium' },
  /** 'Sunday, 29 November 2026 at 18:05' in the reader's time zone: when a live session starts */
  localDayTime: { dateStyle: 'full', timeStyle: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>
export type DateStyle = keyof typeof DATE_STYLES
type LocalStyle = Extract<DateStyle, `local${string}`>
const formatters = new Map<string, Intl.DateTimeFormat>()

/**
 * An ISO string or a Date in one of the styles (see DATE_STYLES); en-GB words. `timeZone` is the reader's zone for a
 * 'local' style written away from the reader's browser (a server's e-mail); the browser's own zone otherwise.
 */
export function formatDate(value: string | Date, style?: Exclude<DateStyle, LocalStyle>): string
export function formatDate(value: string | Date, style: LocalStyle, timeZone?: string): string
export function formatDate(value: string | Date, style: DateStyle = 'long', timeZone?: string): string {
  const date = new Date(value)
  // The long day, the one of the membership sentences and e-mails, is written without Intl: a phone's first Intl
  // formatter is slow to start while a page hydrates (decision 0035). tests/unit/dates.test.ts holds it to Intl's.
  const year = date.getUTCFullYear()
  if (style === 'long' && year >= 1000 && year <= 9999)
    return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${year}`
  const key = timeZone ? `${style} ${timeZone}` : style
  let formatter = formatters.get(key)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', timeZone ? { ...DATE_STYLES[style], timeZone } : DATE_STYLES[style])
    formatters.set(key, formatter)
  }
  const text = formatter.format(date)
  return style === 'mediumTime' ? `${text} UTC` : text
}

/**
 * A calendar month (`YYYY-MM`, as the server sends a month) for a person: 'Jan 2026' ('short', a chart's axis) or
 * 'January 2026' ('long'). Written without Intl, as the long day is; anything else is returned as it came.
 */
export function formatMonth(month: string, style: 'short' | 'long' = 'short'): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month)
  const name = match ? MONTHS[Number(match[2]) - 1] : undefined
  if (!match || !name) return month
  return `${style === 'short' ? name.slice(0, 3) : name} ${match[1]}`
}

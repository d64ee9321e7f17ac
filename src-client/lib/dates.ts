// The one way the client writes a date (decision 0095): en-GB words in fixed styles. Every style but the two 'local'
// ones is in UTC, the days the server counts in, so the server-rendered HTML and the hydrating render write the same
// text; a message's, a webhook delivery's or a live session's time is in the reader's own zone ('localTime',
// 'localDayTime'). Its one variant is useDateFormat (lib/local-date.ts): the catalogue's public dates in the
// visitor's own locale once the page has hydrated. Kept out of lib/format.ts, which the home page loads
// (formatDuration): a module goes whole into the first visit's chunk.
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
const formatters: Partial<Record<DateStyle, Intl.DateTimeFormat>> = {}

/** An ISO string or a Date in one of the client's styles (see DATE_STYLES); en-GB words. */
export function formatDate(value: string | Date, style: DateStyle = 'long'): string {
  formatters[style] ??= new Intl.DateTimeFormat('en-GB', DATE_STYLES[style])
  const text = formatters[style].format(new Date(value))
  return style === 'mediumTime' ? `${text} UTC` : text
}

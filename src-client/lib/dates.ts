// Dates as the studio writes them, one set for every studio page: the money dates (payouts, ledger, invitations) in
// UTC, the days the server counts in; a webhook delivery's or a message's time in the reader's own zone. Kept out of
// lib/format.ts, which the home page loads (formatDuration): a module goes whole into the first visit's chunk.
const DATE_STYLES = {
  /** '29 November 2026' (UTC) */
  long: { dateStyle: 'long', timeZone: 'UTC' },
  /** '29 Nov 2026' (UTC) */
  medium: { dateStyle: 'medium', timeZone: 'UTC' },
  /** '29 November 2026 at 18:05' (UTC) */
  longTime: { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' },
  /** '29 Nov 2026, 18:05:09' in the reader's time zone */
  localTime: { dateStyle: 'medium', timeStyle: 'medium' },
} satisfies Record<string, Intl.DateTimeFormatOptions>
export type DateStyle = keyof typeof DATE_STYLES
const formatters: Partial<Record<DateStyle, Intl.DateTimeFormat>> = {}

/** An ISO string or a Date in one of the studio's styles (see DATE_STYLES); en-GB words. */
export function formatDate(value: string | Date, style: DateStyle = 'long'): string {
  formatters[style] ??= new Intl.DateTimeFormat('en-GB', DATE_STYLES[style])
  return formatters[style].format(new Date(value))
}

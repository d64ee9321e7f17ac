// Display formats shared by the shop and the admin (money formatting lives in src-shared/money.ts).

/** 150 → '2h 30m', 120 → '2h', 45 → '45m'. */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  if (hours === 0) return `${rest}m`
  return rest === 0 ? `${hours}h` : `${hours}h ${rest}m`
}

// Dates as the studio writes them. The money dates (payouts, ledger, school invitations) are in UTC, the days the
// server counts in; a webhook delivery's time is the reader's own.
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
const formatters = new Map<DateStyle, Intl.DateTimeFormat>()

/** An ISO string or a Date in one of the studio's styles (see DATE_STYLES); en-GB words. */
export function formatDate(value: string | Date, style: DateStyle = 'long'): string {
  let formatter = formatters.get(style)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', DATE_STYLES[style])
    formatters.set(style, formatter)
  }
  return formatter.format(new Date(value))
}

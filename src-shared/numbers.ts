// en-US numbers and dates without Intl, for what a page renders while it hydrates. A browser's first Intl formatter
// loads ICU's locale data: 70–190 ms of a phone's main thread at 4× CPU slowdown for the first number, 15–40 ms more
// for the first date (issue 27, `npm run bench:hydration`), spent before the page can answer a tap although the
// server already wrote the very same text. These give the same strings as `toLocaleString('en-US', …)`
// (tests/unit/numbers.test.ts) and hand anything else to Intl.

/** `n.toLocaleString('en-US')` for a whole number: "1,234,567". */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US')
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',')
  return n < 0 || Object.is(n, -0) ? `-${digits}` : digits
}

/**
 * A count as a headline shows it, never more than it is: exact below ten thousand ("8,500"), else rounded down to one
 * decimal of thousands or millions with a "+" ("12.5K+", "1.2M+").
 */
export function headlineCount(n: number): string {
  const whole = Math.max(0, Math.floor(n))
  if (whole < 10_000) return groupDigits(whole)
  const [unit, size] = whole < 1_000_000 ? ['K', 1_000] : ['M', 1_000_000]
  const tenths = Math.floor((whole * 10) / size)
  return `${groupDigits(Math.floor(tenths / 10))}${tenths % 10 ? `.${tenths % 10}` : ''}${unit}+`
}

/** The months in English, for the days written without Intl (here and dates.ts). */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** The day in UTC as `toLocaleDateString('en-US', { timeZone: 'UTC', year, month: 'long', day })` writes it: "December 1, 2026". */
export function longDateUtc(date: string | Date): string {
  const day = new Date(date)
  const year = day.getUTCFullYear()
  if (Number.isNaN(year) || year < 1000 || year > 9999) {
    return day.toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' })
  }
  return `${MONTHS[day.getUTCMonth()]} ${day.getUTCDate()}, ${year}`
}

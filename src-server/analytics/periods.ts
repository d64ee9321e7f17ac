// Date ranges of the analytics pages: UTC days, grouped by day, ISO week (its Monday) or month; every period of the
// range is listed, so an empty one shows as zero, not as a gap.
export type Granularity = 'day' | 'week' | 'month'
const DAY_MS = 86_400_000

const toDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const msOf = (day: string) => new Date(`${day}T00:00:00.000Z`).getTime()

export function periodOf(day: string, granularity: Granularity): string {
  if (granularity === 'day') return day
  if (granularity === 'month') return day.slice(0, 7)
  const ms = msOf(day)
  const weekday = (new Date(ms).getUTCDay() + 6) % 7
  return toDay(ms - weekday * DAY_MS)
}

export function daysBetween(from: string, to: string): string[] {
  const days: string[] = []
  for (let ms = msOf(from); ms <= msOf(to); ms += DAY_MS) days.push(toDay(ms))
  return days
}

export function periodsOf(from: string, to: string, granularity: Granularity): string[] {
  return [...new Set(daysBetween(from, to).map((day) => periodOf(day, granularity)))]
}

/** The range of the same length just before [from, to]. */
export function previousRange(from: string, to: string): { from: string; to: string } {
  const length = (msOf(to) - msOf(from)) / DAY_MS + 1
  return { from: toDay(msOf(from) - length * DAY_MS), to: toDay(msOf(from) - DAY_MS) }
}

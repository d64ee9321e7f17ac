// The analytics pages' range of UTC days, without zod: the pages' search params are read on every page's first load
// (the route tree), so this stays out of the zod chunk; the procedures' schema (schemas/analytics.ts) uses the same rules.
export const ANALYTICS_MAX_DAYS = 366
export const ANALYTICS_GRANULARITIES = ['day', 'week', 'month'] as const
export type AnalyticsGranularity = (typeof ANALYTICS_GRANULARITIES)[number]
export const DAY_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/

export const dayMs = (day: string) => new Date(`${day}T00:00:00.000Z`).getTime()

/** Whether a range of days is one the pages accept: real dates, in order, at most ANALYTICS_MAX_DAYS long. */
export function isAnalyticsRange(from: unknown, to: unknown): boolean {
  if (typeof from !== 'string' || typeof to !== 'string') return false
  if (!DAY_PATTERN.test(from) || !DAY_PATTERN.test(to)) return false
  const start = dayMs(from)
  const end = dayMs(to)
  return !Number.isNaN(start) && !Number.isNaN(end) && from <= to && (end - start) / 86_400_000 < ANALYTICS_MAX_DAYS
}

/** The default range: the 30 UTC days ending today. */
export function lastThirtyDays(today: string): { from: string; to: string } {
  return { from: new Date(dayMs(today) - 29 * 86_400_000).toISOString().slice(0, 10), to: today }
}

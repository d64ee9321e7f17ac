// The analytics pages' search params: a range of UTC days and its grouping, the last 30 days by default.
import {
  ANALYTICS_GRANULARITIES,
  type AnalyticsGranularity,
  isAnalyticsRange,
  lastThirtyDays,
} from '#shared/analytics-range.ts'
import type { RangeValue } from './AnalyticsView.tsx'

export type RangeSearch = Partial<RangeValue> & { course?: string }

export function validateRangeSearch(search: Record<string, unknown>): RangeSearch {
  const granularity = ANALYTICS_GRANULARITIES.find((value) => value === (search.granularity ?? 'day'))
  const range =
    granularity && isAnalyticsRange(search.from, search.to)
      ? { from: search.from as string, to: search.to as string, granularity: granularity as AnalyticsGranularity }
      : {}
  const course = typeof search.course === 'string' && search.course.length <= 120 ? search.course : undefined
  return { ...range, ...(course ? { course } : {}) }
}

export function rangeOf(search: RangeSearch): RangeValue {
  if (search.from && search.to) return { from: search.from, to: search.to, granularity: search.granularity ?? 'day' }
  return { ...lastThirtyDays(new Date().toISOString().slice(0, 10)), granularity: search.granularity ?? 'day' }
}

export const csvQuery = (range: RangeValue) => `from=${range.from}&to=${range.to}&granularity=${range.granularity}`

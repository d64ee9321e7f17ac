// The analytics pages' inputs: a range of UTC days (at most a year and a day) grouped by day, week or month.
import { z } from 'zod'
import { ANALYTICS_GRANULARITIES, ANALYTICS_MAX_DAYS, DAY_PATTERN, dayMs } from '../analytics-range.ts'
import { COURSE_CHANNELS } from '../cart.ts'

export { ANALYTICS_MAX_DAYS, type AnalyticsGranularity, lastThirtyDays } from '../analytics-range.ts'

const daySchema = z.string().regex(DAY_PATTERN, 'Use a date like 2026-11-30')

export const granularitySchema = z.enum(ANALYTICS_GRANULARITIES)

export const analyticsRangeSchema = z
  .object({ from: daySchema, to: daySchema, granularity: granularitySchema.default('day') })
  .refine((range) => !Number.isNaN(dayMs(range.from)) && !Number.isNaN(dayMs(range.to)), 'Not a date')
  .refine((range) => range.from <= range.to, { message: 'The start must be on or before the end', path: ['from'] })
  .refine((range) => (dayMs(range.to) - dayMs(range.from)) / 86_400_000 < ANALYTICS_MAX_DAYS, {
    message: `At most ${ANALYTICS_MAX_DAYS} days`,
    path: ['to'],
  })
export type AnalyticsRange = z.infer<typeof analyticsRangeSchema>

/** A course-page view and how the visitor got there (an unknown marker counts as direct, not refused). */
export const courseViewedSchema = z.object({
  courseId: z.string().trim().min(1).max(120),
  from: z.enum(COURSE_CHANNELS).optional().catch(undefined),
})

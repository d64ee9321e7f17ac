// Drip schedules (issue 33): a section opens N days after the learner's access began, on a date, or the later of
// both; neither set: at once.
import { z } from 'zod'
import { courseIdSchema } from './catalog.ts'

export const MAX_DRIP_DAYS = 3650

export const DRIP_MESSAGES = {
  /** /pricing sells "Coupons, bundles and drip content" with Pro and Enterprise: a creator without either is told so. */
  planNeeded: 'Drip content is a Pro feature: choose the Pro or Enterprise plan to schedule when sections open',
} as const

export const dripScheduleRef = z.object({ courseId: courseIdSchema })

export const sectionDripInput = z.object({
  courseId: courseIdSchema,
  sectionId: z.uuid(),
  afterDays: z.number().int().min(1, 'At least 1 day').max(MAX_DRIP_DAYS, 'At most 10 years').nullable(),
  /** An ISO date-time, or null. */
  opensAt: z.iso.datetime({ offset: true }).nullable(),
})

// Live sessions (issue 34): inputs of the live router (and of the studio's session form).
import { z } from 'zod'
import { courseIdSchema } from './catalog.ts'

/** Members see the join link from this long before the start (through /live/<id>/join). */
export const JOIN_OPENS_MINUTES_BEFORE = 15
/** The reminder goes out this long before the start. */
export const REMINDER_MINUTES_BEFORE = 60

const httpsUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(500, `${label} must be at most 500 characters.`)
    .refine((value) => URL.parse(value)?.protocol === 'https:', `${label} must be an https:// address.`)

/** An IANA time zone this server knows (Europe/Paris, America/New_York, UTC). */
export const timeZoneSchema = z
  .string()
  .trim()
  .min(1, 'Choose a time zone')
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone })
      return zone.includes('/') || zone === 'UTC'
    } catch {
      return false
    }
  }, 'Choose a time zone such as Europe/Paris')

/** A wall-clock start in the session's time zone: 2026-12-10T18:00. */
export const localStartSchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Give the start as a date and a time')

const sessionFields = {
  title: z.string().trim().min(1, 'Give the session a title').max(200, 'At most 200 characters'),
  description: z.string().trim().max(5000, 'At most 5,000 characters').default(''),
  localStart: localStartSchema,
  timeZone: timeZoneSchema,
  durationMinutes: z.coerce.number().int().min(5, 'At least 5 minutes').max(600, 'At most 10 hours'),
  capacity: z.coerce.number().int().min(1, 'At least one seat').max(100_000, 'At most 100,000 seats'),
  joinUrl: httpsUrl('The join link'),
}

/** A session's own fields, as the studio's form checks them before sending. */
export const sessionFieldsInput = z.object(sessionFields)

export const createSessionInput = z.object({
  /** Absent: a session for all Premium members (staff only). */
  courseId: courseIdSchema.optional(),
  ...sessionFields,
})

export const updateSessionInput = z.object({ sessionId: z.uuid(), ...sessionFields })

export const sessionRef = z.object({ sessionId: z.uuid() })

export const recordingInput = z
  .object({
    sessionId: z.uuid(),
    lessonId: z.uuid().optional(),
    url: z.preprocess(
      (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
      httpsUrl('The recording link').optional(),
    ),
  })
  .refine((value) => !(value.lessonId && value.url), 'Choose a lesson or a link, not both')

/** Sessions ahead the viewer may attend: one course's (its page, its player), or every course's (My courses). */
export const upcomingInput = z.object({ courseId: courseIdSchema.optional() }).default({})

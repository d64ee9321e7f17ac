// Admin constants without zod, so route definitions (loaded with the first page) can use them cheaply.
export const COURSE_FILTERS = ['all', 'published', 'draft', 'featured'] as const
export type CourseFilter = (typeof COURSE_FILTERS)[number]
export const ADMIN_PAGE_SIZE = 10
export const ORDER_STATUSES = [
  'pending',
  'awaiting_transfer',
  'paid',
  'failed',
  'cancelled',
  'expired',
  'partially_refunded',
  'refunded',
  'disputed',
] as const

/** The delivery states of an outbox message ('logged': printed to the terminal, no SMTP_URL set). */
export const OUTBOX_STATUSES = ['pending', 'sent', 'logged', 'failed'] as const

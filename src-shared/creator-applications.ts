// An application to teach's states and their words, without zod: route definitions (the staff queue's search
// filter) import them, and anything a route definition imports lands in the first page's JavaScript.
export const APPLICATION_STATUSES = ['submitted', 'approved', 'declined'] as const
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number]

export const APPLICATION_STATUS_LABELS: Record<ApplicationStatus, string> = {
  submitted: 'Submitted',
  approved: 'Approved',
  declined: 'Declined',
}

/** A sample video attached to an application (sent over tus, as lesson videos are). */
export const APPLICATION_VIDEO_MAX_BYTES = 500 * 1024 * 1024

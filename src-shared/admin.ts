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
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number]
/** How the outbox and the support dialog name them. */
export const OUTBOX_STATUS_LABELS: Record<OutboxStatus, string> = {
  pending: 'Queued',
  sent: 'Sent',
  logged: 'Printed (no SMTP)',
  failed: 'Failed',
}

/**
 * One mail's state in a line, for a screen that may not open the outbox (the support dialog): "Queued", "Queued — 1
 * attempt failed: …", "Sent", "Printed (no SMTP)", "Failed — not delivered: …"; null: no longer in the outbox.
 */
export function deliveryLine(delivery: { status: OutboxStatus; attempts: number; problem: string | null } | null) {
  if (!delivery) return 'Delivery no longer recorded'
  const label = OUTBOX_STATUS_LABELS[delivery.status]
  if (delivery.status === 'failed') return `${label} — not delivered: ${delivery.problem ?? 'no attempt finished'}`
  if (delivery.status === 'pending' && delivery.problem) {
    const tries = delivery.attempts === 1 ? '1 attempt' : `${delivery.attempts} attempts`
    return `${label} — ${tries} failed so far: ${delivery.problem}`
  }
  return label
}

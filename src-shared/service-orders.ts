// Service orders as every screen names them: one label per status (the buyer's account, the admin queue and the
// e-mails all read this map), the queue's filters, who may be given one to work and the limits of their files.
import { hasRole, type Role } from './roles.ts'

export const SERVICE_ORDER_STATUSES = [
  'brief_needed',
  'submitted',
  'in_progress',
  'delivered',
  'revision_requested',
  'completed',
  'cancelled',
] as const
export type ServiceOrderStatus = (typeof SERVICE_ORDER_STATUSES)[number]

export const SERVICE_ORDER_STATUS_LABELS: Record<ServiceOrderStatus, string> = {
  brief_needed: 'Brief needed',
  submitted: 'Submitted',
  in_progress: 'In progress',
  delivered: 'Delivered',
  revision_requested: 'Revision requested',
  completed: 'Completed',
  cancelled: 'Cancelled',
}

/** Statuses in which the order waits on staff, so the due date can pass. */
export const SERVICE_ORDER_OPEN_STATUSES = ['submitted', 'in_progress', 'revision_requested'] as const

/**
 * Who may be given a service order: editors and up (a viewer cannot work one). The server's assign refuses anyone
 * else; the order page's selector and the work queue's assignee filter list the team members it keeps.
 */
export const canBeAssigned = (role: Role) => hasRole(role, 'editor')

export function assignableMembers<T extends { role: Role }>(team: readonly T[] | undefined): T[] {
  return (team ?? []).filter((member) => canBeAssigned(member.role))
}

/** Files with a brief, a message or a delivery: PDF, images and office documents, judged by their bytes. */
export const SERVICE_FILE_MAX_BYTES = 10 * 1024 * 1024
export const SERVICE_FILE_ACCEPT = '.pdf,.png,.jpg,.jpeg,.gif,.webp,.doc,.docx,.xls,.xlsx,.ppt,.pptx'

export const SERVICE_ORDER_MESSAGES = {
  notAllowedFile: 'Please choose a PDF, an image or an office document',
  fileTooLarge: 'Files must be smaller than 10MB',
  uploadFailed: 'Failed to upload the file. Please try again.',
  notFound: 'Service order not found',
  briefLocked: 'The brief has already been submitted',
  noRevisionsLeft: 'No revisions left on this package',
  draftSaved: 'Draft saved',
  briefSubmitted: 'Brief submitted',
  fixFields: 'Please correct the highlighted fields',
} as const

export const MESSAGE_MAX_LENGTH = 5000

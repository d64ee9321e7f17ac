import { z } from 'zod'
import { searchedAddress } from './admin.ts'

/** The staff support inbox (/admin/support): open messages by reply due time, or answered ones. */
export const SUPPORT_INBOX_STATUSES = ['open', 'answered'] as const
export type SupportInboxStatus = (typeof SUPPORT_INBOX_STATUSES)[number]

export const supportInboxInput = z.object({
  status: z.enum(SUPPORT_INBOX_STATUSES).default('open'),
  page: z.number().int().min(1).max(10_000).default(1),
  /** Only the messages from this address. Its name sends the query as a POST (src-client/lib/trpc.ts). */
  sender: searchedAddress.optional(),
})

/** Staff assign an Enterprise member (by their account's email) a dedicated success manager from the staff. */
export const assignSuccessManagerInput = z.object({
  memberEmail: z.string().trim().toLowerCase().max(254).pipe(z.email('Enter the member’s email address')),
  managerId: z.uuid('Choose a staff member'),
})
export type AssignSuccessManagerInput = z.infer<typeof assignSuccessManagerInput>

/** Staff answer a contact message from the inbox; the answer is mailed to the sender. */
export const supportReplyInput = z.object({
  id: z.uuid(),
  body: z.string().trim().min(1, 'Write your answer').max(5000, 'An answer can be at most 5,000 characters'),
})

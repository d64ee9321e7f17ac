import { z } from 'zod'
import { contactMessageSchema } from './contact.ts'

/** One chat message: what the member or staff member types. */
export const chatBody = z
  .string()
  .trim()
  .min(1, 'Write a message')
  .max(2000, 'A chat message can be at most 2,000 characters')

export const startChatInput = z.object({ message: chatBody })
/** A visitor who is not signed in (decision 0103) names themselves as on the contact form. */
export const startVisitorChatInput = startChatInput.extend({
  name: contactMessageSchema.shape.name,
  email: contactMessageSchema.shape.email,
})
export const sendChatInput = z.object({ conversationId: z.uuid(), body: chatBody })
export const chatIdInput = z.object({ id: z.uuid() })
export const staffChatReplyInput = z.object({ id: z.uuid(), body: chatBody })
/** The desk's "Available for chats" (decision 0102), kept per staff member. */
export const deskAvailableInput = z.object({ available: z.boolean() })
export const staffChatQueueInput = z.object({
  status: z.enum(['open', 'closed']).default('open'),
  page: z.number().int().min(1).max(10_000).default(1),
})

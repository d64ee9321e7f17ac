// Messages to instructors (issue 34): inputs of the messages router, and the words the screens switch on.
import { z } from 'zod'
import { courseIdSchema } from './catalog.ts'

/** Attachments: PDF, images and office documents judged by their bytes (the service orders' private-file rules). */
export const MESSAGE_FILE_MAX_BYTES = 10 * 1024 * 1024
export const MESSAGE_FILE_ACCEPT = '.pdf,.png,.jpg,.jpeg,.gif,.webp,.doc,.docx,.xls,.xlsx,.ppt,.pptx'
export const MESSAGE_MAX_FILES = 5

export const INSTRUCTOR_MESSAGE_WORDS = {
  notHolder: 'Messages to instructors are for Premium members and for learners who bought this course.',
  /** The same, to someone who wrote before (their Premium or purchase has ended since): the thread stays theirs to read. */
  notHolderAnymore:
    'Messages to instructors are for Premium members and for learners who bought this course. Your earlier messages stay readable.',
  blocked: 'The instructors of this course are not accepting messages from you.',
  closed: 'This conversation was closed by the instructor.',
  tooMany: 'You are sending messages too quickly. Please wait a few minutes.',
  ownCourse: 'You teach this course: answer learners from your studio inbox.',
} as const

const body = z.string().trim().min(1, 'Write a message first').max(5000, 'At most 5,000 characters')
const fileIds = z.array(z.uuid()).max(MESSAGE_MAX_FILES, `At most ${MESSAGE_MAX_FILES} files`).default([])

export const courseRef = z.object({ courseId: courseIdSchema })
export const threadRef = z.object({ threadId: z.uuid() })

export const sendToInstructorInput = z.object({
  courseId: courseIdSchema,
  /** The first message's subject; later messages keep the thread's. */
  subject: z.string().trim().max(200, 'At most 200 characters').optional(),
  body,
  fileIds,
})
export const replyInput = threadRef.extend({ body, fileIds })
export const closeThreadInput = threadRef.extend({ closed: z.boolean() })
export const blockSenderInput = threadRef.extend({
  blocked: z.boolean(),
  reason: z.string().trim().max(500, 'At most 500 characters').optional(),
})
export const reportThreadInput = threadRef.extend({
  reason: z.string().trim().min(1, 'Say what is wrong').max(500, 'At most 500 characters'),
})
export const messageMailInput = z.object({ dailyDigest: z.boolean() })
export const inboxInput = z.object({
  courseId: courseIdSchema.optional(),
  filter: z.enum(['all', 'unread', 'open', 'closed']).default('all'),
})

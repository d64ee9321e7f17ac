// Questions under lessons (issue 33): inputs of the questions router.
import { z } from 'zod'
import { courseIdSchema } from './catalog.ts'

export const QUESTION_PAGE_SIZE = 20
export const QUESTION_SORTS = ['newest', 'votes', 'unanswered'] as const
export type QuestionSort = (typeof QUESTION_SORTS)[number]

const body = z.string().trim().min(1, 'Write something first').max(10_000, 'At most 10,000 characters')

export const questionListInput = z.object({
  courseId: courseIdSchema,
  /** Absent: the whole course (search within the course). */
  lessonId: z.uuid().optional(),
  sort: z.enum(QUESTION_SORTS).default('newest'),
  search: z.string().trim().max(100).optional(),
  cursor: z.string().max(300).optional(),
  limit: z.number().int().min(1).max(50).default(QUESTION_PAGE_SIZE),
})

export const askQuestionInput = z.object({
  courseId: courseIdSchema,
  lessonId: z.uuid(),
  title: z.string().trim().min(1, 'Give your question a title').max(200, 'At most 200 characters'),
  body: z.string().trim().max(10_000, 'At most 10,000 characters').default(''),
})

export const questionRef = z.object({ questionId: z.uuid() })
export const answerInput = questionRef.extend({ body })
export const markAnsweredInput = questionRef.extend({ answered: z.boolean() })
export const voteInput = questionRef.extend({ up: z.boolean() })
export const postRef = questionRef.extend({ answerId: z.uuid().optional() })
export const reportInput = postRef.extend({ reason: z.string().trim().min(1, 'Say what is wrong').max(500) })
export const hideInput = postRef.extend({ hidden: z.boolean() })
export const digestInput = z.object({ courseId: courseIdSchema, optOut: z.boolean() })
export const digestRef = z.object({ courseId: courseIdSchema })
/** The moderators' queue of reported posts: staff editors see every course, instructors their own. */
export const reportQueueInput = z.object({ courseId: courseIdSchema.optional() })
export const dismissReportsInput = postRef
/** Images in posts: at most this many bytes, judged by content (PNG, JPEG, GIF, WebP). */
export const POST_IMAGE_MAX_BYTES = 5 * 1024 * 1024
/** Where a post's image is served; the Markdown of a post refers to it by this path. */
export const POST_IMAGE_PATH = '/api/learn/post-images/'

// Admin inputs, shared by the admin forms and the admin procedures (the server is the one that enforces them).
import { z } from 'zod'
import { COURSE_FILTERS, ORDER_STATUSES, OUTBOX_STATUSES } from '../admin.ts'
import { COURSE_LEVELS, COURSE_STATUSES, TEAM_ROLES } from '../constants.ts'
import { LESSON_DURATION_MESSAGE, LESSON_DURATION_PATTERN } from '../lesson-duration.ts'
import { parseVideoUrl, VIDEO_URL_MESSAGE } from '../video-url.ts'
import { courseIdSchema } from './catalog.ts'
import { personName } from './person-name.ts'

export const REQUIRED_FIELDS = 'Please fill in required fields'
export const PRICE_NOT_A_NUMBER = 'Price must be a number'
export const ADMIN_LOGIN_FAILED = 'Invalid email or password. Please try again.'
export const COURSE_IMAGE_REFUSED = 'Image must be an uploaded image or an https address'

export const adminLoginInput = z.object({
  email: z.string().trim().min(1, 'Email is required').max(254),
  password: z.string().min(1, 'Password is required').max(200),
})

/** A decimal amount such as '49.99' (up to 2 decimals); '', 'abc' or 'NaN' are refused, never stored. */
const priceText = z
  .string()
  .trim()
  .regex(/^\d{1,7}(\.\d{1,2})?$/, PRICE_NOT_A_NUMBER)

export const lessonDurationText = z.string().trim().regex(LESSON_DURATION_PATTERN, LESSON_DURATION_MESSAGE)

const lessonInput = z.object({
  /** Sent back for an existing lesson so an edit keeps its id (and learners' progress). */
  id: z.uuid().optional(),
  title: z.string().trim().min(1, 'Every lesson needs a title').max(200),
  duration: lessonDurationText,
  isPreview: z.boolean(),
})
const sectionInput = z.object({
  id: z.uuid().optional(),
  title: z.string().trim().min(1, 'Every section needs a title').max(200),
  lessons: z.array(lessonInput).max(200),
})
const listOfLines = z.array(z.string().trim().min(1).max(300)).max(50)

export const courseInput = z.object({
  title: z.string().trim().min(1, REQUIRED_FIELDS).max(200),
  description: z.string().trim().min(1, REQUIRED_FIELDS).max(5000),
  /** The price in USD ('0': not sold in USD); with priceGbp, both 0 or empty: free (decision 0069). */
  price: priceText,
  /** The price in GBP ('' or '0': not sold in GBP). */
  priceGbp: priceText.or(z.literal('')).default(''),
  /** The struck-through price, in the course's list currency. */
  originalPrice: priceText.or(z.literal('')).default(''),
  categoryId: z.uuid('Please choose a category'),
  instructorName: z.string().trim().max(120).default(''),
  /** Only the shape here; the server accepts only images its storage produced (admin/course-image-url.ts). */
  imageUrl: z
    .string()
    .trim()
    .max(500)
    .regex(/^(\/[\w./-]*|https?:\/\/\S+)?$/, COURSE_IMAGE_REFUSED)
    .default(''),
  level: z.enum(COURSE_LEVELS).default('beginner'),
  status: z.enum(COURSE_STATUSES).default('draft'),
  featured: z.boolean().default(false),
  language: z.string().trim().min(1).max(60).default('English'),
  certificate: z.boolean().default(true),
  /** Whether an active Premium subscription opens the course. */
  includedInPremium: z.boolean().default(true),
  /** Used only when the curriculum lists no lessons; otherwise counted from it. */
  lessons: z.coerce.number().int('Lessons must be a whole number').min(0).max(10_000).default(0),
  durationMinutes: z.coerce.number().int('Duration must be whole minutes').min(0).max(100_000).default(0),
  whatYouWillLearn: listOfLines.default([]),
  requirements: listOfLines.default([]),
  curriculum: z.array(sectionInput).max(100).default([]),
})
export type CourseInput = z.input<typeof courseInput>

export const courseUpdateInput = courseInput.extend({ id: courseIdSchema })

export { ADMIN_PAGE_SIZE, COURSE_FILTERS, type CourseFilter } from '../admin.ts'

export const courseListInput = z.object({
  filter: z.enum(COURSE_FILTERS).default('all'),
  search: z.string().trim().max(100).default(''),
  page: z.number().int().min(1).max(10_000).default(1),
})

export const categoryInput = z.object({
  name: z.string().trim().min(1, 'Category name is required').max(80),
  description: z.string().trim().max(500).default(''),
})
export const categoryUpdateInput = categoryInput.extend({ id: z.uuid() })

export const teamRoleSchema = z.enum(TEAM_ROLES)
export const inviteInput = z.object({
  name: personName('Name', 100),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email('Please enter a valid email address.')),
  role: teamRoleSchema.default('viewer'),
})
export const acceptInviteInput = z.object({
  token: z.string().trim().min(10).max(200),
  password: z.string().min(8, 'Password must be at least 8 characters').max(200),
})

/** A lesson's content, edited from the curriculum editor (editor role and up). */
export const lessonContentInput = z
  .object({
    courseId: courseIdSchema,
    lessonId: z.uuid(),
    kind: z.enum(['article', 'video', 'quiz']),
    bodyMarkdown: z.string().max(100_000, 'Lesson text is too long').default(''),
    videoUrl: z
      .string()
      .trim()
      .max(500)
      .refine((value) => value === '' || parseVideoUrl(value) !== null, VIDEO_URL_MESSAGE)
      .default(''),
    /** A key the video upload answered (or the lesson's current one). */
    videoKey: z.string().trim().max(300).nullable().default(null),
    attachments: z
      .array(
        z.object({ id: z.uuid().optional(), name: z.string().trim().min(1).max(120), key: z.string().trim().max(300) }),
      )
      .max(20)
      .default([]),
  })
  .refine((lesson) => lesson.kind === 'article' || Boolean(lesson.videoKey) || lesson.videoUrl !== '', {
    message: 'A video lesson needs an uploaded video or a YouTube/Vimeo link',
    path: ['videoUrl'],
  })

/** A whole e-mail address staff search for (in any case: addresses are kept as given, compared lowercased). */
export const searchedAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'An e-mail address is at most 254 characters')
  .pipe(z.email('Enter a whole e-mail address, such as name@example.com'))

/** /admin/customers: one customer, by their account's address. Its name sends the query as a POST (lib/trpc.ts). */
export const customerLookupInput = z.object({ customer: searchedAddress })

/** /admin/customers: support starts moving a customer's account to the address they can read now (decision 0158). */
export const customerEmailChangeInput = z.object({
  customerId: z.uuid('Choose a customer'),
  newEmail: z
    .string()
    .trim()
    .min(1, 'Enter the new e-mail address')
    .max(254)
    .pipe(z.email('Enter a whole e-mail address, such as name@example.com')),
})

/** /admin/customers: suspending an account, with the reason the person is mailed (decision 0160). */
export const customerSuspensionInput = z.object({
  customerId: z.uuid('Choose a customer'),
  reason: z
    .string()
    .trim()
    .min(10, 'Say why in a sentence: the customer is sent it')
    .max(500, 'Keep the reason under 500 characters'),
})

/** /admin/customers: a staff note about the customer (decision 0161). */
export const customerNoteInput = z.object({
  customerId: z.uuid('Choose a customer'),
  body: z.string().trim().min(1, 'Write the note first').max(2000, 'Keep the note under 2,000 characters'),
})

export const customerNoteIdInput = z.object({ noteId: z.uuid('Choose a note') })

/** /admin/customers: the customer whose waiting address change support ends. */
export const customerIdInput = z.object({ customerId: z.uuid('Choose a customer') })

/**
 * /admin/audit: a page of the log; with `account`, only the entries about that account or made by it (its address,
 * in any case). Its name sends the query as a POST (src-client/lib/trpc.ts): an address must not go in a URL.
 */
export const auditListInput = z.object({
  page: z.number().int().min(1).max(10_000).default(1),
  account: searchedAddress.optional(),
})

/**
 * /admin/orders' Find: an order's reference (as printed: SF-…), or its customer's e-mail address (in any case).
 * Its name sends the query as a POST (src-client/lib/trpc.ts): an address must not go in a URL.
 */
export const orderLookup = z
  .string()
  .trim()
  .min(1, 'Enter an order reference or a customer’s e-mail address')
  .max(254, 'An order reference or e-mail address is at most 254 characters')
  .transform((text, context) => {
    if (!text.includes('@')) return { reference: text }
    const email = searchedAddress.safeParse(text)
    if (email.success) return { email: email.data }
    for (const issue of email.error.issues) context.addIssue({ code: 'custom', message: issue.message })
    return z.NEVER
  })

export const orderListInput = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  page: z.number().int().min(1).max(10_000).default(1),
  lookup: orderLookup.optional(),
})

export const outboxListInput = z.object({
  page: z.number().int().min(1).max(10_000).default(1),
  status: z.enum(OUTBOX_STATUSES).optional(),
  /** Only the mail to this address. Its name sends the query as a POST (src-client/lib/trpc.ts). */
  recipient: searchedAddress.optional(),
})

// The creator studio's inputs, shared by its forms and its procedures (the server is the one that enforces them).
import { z } from 'zod'
import { COURSE_LEVELS } from '../constants.ts'
import { LESSON_DURATION_MESSAGE, LESSON_DURATION_PATTERN } from '../lesson-duration.ts'
import { STUDIO_LIMITS, STUDIO_MESSAGES, STUDIO_STATES } from '../studio.ts'
import { parseVideoUrl, VIDEO_URL_MESSAGE } from '../video-url.ts'
import { COURSE_IMAGE_REFUSED } from './admin.ts'
import { courseIdSchema } from './catalog.ts'

const title = z
  .string()
  .trim()
  .min(1, STUDIO_MESSAGES.titleRequired)
  .max(STUDIO_LIMITS.title, STUDIO_MESSAGES.titleTooLong)
const listOfLines = (label: string) =>
  z
    .array(
      z
        .string()
        .trim()
        .min(1, `${label}: remove the empty line`)
        .max(STUDIO_LIMITS.listItemLength, `${label}: each line at most ${STUDIO_LIMITS.listItemLength} characters`),
    )
    .max(STUDIO_LIMITS.listItems, `${label}: at most ${STUDIO_LIMITS.listItems} lines`)

/** A price in major units as typed ('0' or '' is free). */
export const studioPrice = z
  .string()
  .trim()
  .transform((value) => (value === '' ? '0' : value))
  .pipe(
    z
      .string()
      .regex(/^\d{1,4}(\.\d{1,2})?$/, STUDIO_MESSAGES.price)
      .refine((value) => Number(value) <= STUDIO_LIMITS.maxPrice, STUDIO_MESSAGES.price),
  )

export const studioListInput = z.object({
  search: z.string().trim().max(100).default(''),
  state: z.enum(STUDIO_STATES).optional(),
  page: z.number().int().min(1).max(10_000).default(1),
})

export const studioCreateInput = z.object({
  title,
  categoryId: z.uuid('Please choose a category'),
})

export const studioCourseInput = z.object({
  courseId: courseIdSchema,
  title,
  subtitle: z.string().trim().max(STUDIO_LIMITS.subtitle, `Subtitle: at most ${STUDIO_LIMITS.subtitle} characters`),
  categoryId: z.uuid('Please choose a category'),
  level: z.enum(COURSE_LEVELS),
  language: z.string().trim().min(1, 'Please enter a language').max(60),
  description: z
    .string()
    .trim()
    .max(
      STUDIO_LIMITS.description,
      `Description: at most ${STUDIO_LIMITS.description.toLocaleString('en')} characters`,
    ),
  whatYouWillLearn: listOfLines('What you will learn'),
  requirements: listOfLines('Requirements'),
  imageUrl: z
    .string()
    .trim()
    .max(500)
    .regex(/^(\/[\w./-]*|https?:\/\/\S+)?$/, COURSE_IMAGE_REFUSED),
  /** The price in USD and in GBP ('' or 0: not sold in that currency; both: free), decision 0069. */
  priceUsd: studioPrice,
  priceGbp: studioPrice,
  certificate: z.boolean(),
})
export type StudioCourseInput = z.input<typeof studioCourseInput>

export const courseRef = z.object({ courseId: courseIdSchema })
/** The course image alone, kept as soon as it is uploaded (the details form's other fields wait for its Save). */
export const studioCourseImageInput = courseRef.extend({ imageUrl: studioCourseInput.shape.imageUrl })
export const sectionRef = courseRef.extend({ sectionId: z.uuid() })
export const lessonRef = courseRef.extend({ lessonId: z.uuid() })
/** One of the owner's open enrolment invitations (decision 0128). */
export const enrolmentInviteRef = z.object({ inviteId: z.uuid() })

export const addSectionInput = courseRef.extend({ title })
export const renameSectionInput = sectionRef.extend({ title })
export const addLessonInput = sectionRef.extend({ title })

/** The whole order: every section of the course once, each with all its lessons (moves between sections included). */
export const arrangeInput = courseRef.extend({
  sections: z
    .array(
      z.object({
        id: z.uuid(),
        lessonIds: z.array(z.uuid()).max(STUDIO_LIMITS.lessons, STUDIO_MESSAGES.tooManyLessons),
      }),
    )
    .max(STUDIO_LIMITS.sections, STUDIO_MESSAGES.tooManySections),
})

const duration = z.string().trim().regex(LESSON_DURATION_PATTERN, LESSON_DURATION_MESSAGE)
/** A lesson's content: Markdown text, a YouTube/Vimeo link, or an uploaded video (a finished upload's id). */
export const lessonContent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('text'),
    bodyMarkdown: z.string().max(STUDIO_LIMITS.lessonBody, 'Lesson text is too long'),
    duration,
  }),
  z.object({
    type: z.literal('embed'),
    videoUrl: z
      .string()
      .trim()
      .max(500)
      .refine((value) => parseVideoUrl(value) !== null, VIDEO_URL_MESSAGE),
    bodyMarkdown: z.string().max(STUDIO_LIMITS.lessonBody, 'Lesson text is too long').default(''),
    duration,
  }),
  z.object({
    type: z.literal('upload'),
    /** A finished upload to use; left out, the lesson keeps its current file. */
    uploadId: z.string().trim().min(1).max(200).optional(),
    bodyMarkdown: z.string().max(STUDIO_LIMITS.lessonBody, 'Lesson text is too long').default(''),
  }),
  // A quiz (issue 33): its introduction here; its questions and settings in the quiz editor (schemas/quiz.ts).
  z.object({
    type: z.literal('quiz'),
    bodyMarkdown: z.string().max(STUDIO_LIMITS.lessonBody, 'Lesson text is too long').default(''),
    duration,
  }),
])
export const updateLessonInput = lessonRef.extend({ title, isPreview: z.boolean(), content: lessonContent })
export type UpdateLessonInput = z.input<typeof updateLessonInput>

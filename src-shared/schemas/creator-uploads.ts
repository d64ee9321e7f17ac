// Inputs of the creator uploads procedures (routers/creator-uploads.ts) and of a tus upload's start
// (http/tus-uploads.ts). A tus upload id is 32 hex characters.
import { z } from 'zod'
import { courseIdSchema } from './catalog.ts'

export const uploadIdInput = z.object({
  uploadId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, 'That upload was not found'),
})

export const UPLOAD_METADATA_MESSAGES = {
  purpose: 'Unknown upload purpose',
  invalid: 'The upload’s details are not valid: please reload the page and try again',
} as const

/**
 * What a tus upload says of itself in Upload-Metadata (decoded): its file's name and type, its purpose, and for a
 * lesson video the course it is for (decision 0138: its editors may claim it, its owner's plan counts it). A lesson
 * video without a course is the uploader's own ("My video uploads"); an application's sample video names none.
 */
export const tusUploadMetadata = z.discriminatedUnion(
  'purpose',
  [
    z.object({
      purpose: z.literal('lesson'),
      courseId: courseIdSchema.optional(),
      filename: z.string().max(1000).optional(),
      filetype: z.string().max(200).optional(),
    }),
    z.object({
      purpose: z.literal('application'),
      filename: z.string().max(1000).optional(),
      filetype: z.string().max(200).optional(),
    }),
  ],
  { error: UPLOAD_METADATA_MESSAGES.purpose },
)
export type TusUploadMetadata = z.output<typeof tusUploadMetadata>

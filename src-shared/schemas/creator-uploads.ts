// Inputs of the creator uploads procedures (routers/creator-uploads.ts). A tus upload id is 32 hex characters.
import { z } from 'zod'

export const uploadIdInput = z.object({
  uploadId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, 'That upload was not found'),
})

// Inputs of the learning procedures (the player, progress writes, certificates).
import { z } from 'zod'
import { courseIdSchema } from './catalog.ts'

export const lessonRefInput = z.object({ courseId: courseIdSchema, lessonId: z.uuid() })

const seconds = z
  .number()
  .finite()
  .min(0)
  .max(24 * 60 * 60)

export const videoProgressInput = lessonRefInput.extend({
  positionSeconds: seconds,
  /** The stretches actually played since the last save, [start, end] in seconds. */
  ranges: z
    .array(z.tuple([seconds, seconds]))
    .max(200)
    .default([]),
  /** When the client sent it (ms since epoch): a late write never moves the resume position backwards. */
  sentAt: z.number().int().positive(),
})

export const lessonCompletionInput = lessonRefInput.extend({ completed: z.boolean() })

export const certificateIdInput = z.object({ id: z.string().trim().max(100) })

// Checkout recovery inputs (issue 32).
import { z } from 'zod'

export const restoreCartInput = z.strictObject({ orderId: z.uuid('This link is not valid.') })

export const reminderUnsubscribeInput = z.strictObject({
  token: z
    .string()
    .trim()
    .regex(/^[a-z2-7]{40}$/, 'This unsubscribe link is not valid.'),
})

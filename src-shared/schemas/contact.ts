import { z } from 'zod'

/** The contact form (spec §5): the same schema checks the form in the browser and the input on the server. */
export const contactMessageSchema = z.object({
  name: z
    .string()
    .trim()
    .min(2, 'Name must be at least 2 characters.')
    .max(100, 'Name must be at most 100 characters.'),
  email: z
    .string()
    .trim()
    .max(254, 'Please enter a valid email address.')
    .pipe(z.email('Please enter a valid email address.')),
  subject: z
    .string()
    .trim()
    .min(5, 'Subject must be at least 5 characters.')
    .max(150, 'Subject must be at most 150 characters.'),
  message: z
    .string()
    .trim()
    .min(10, 'Message must be at least 10 characters.')
    .max(5000, 'Message must be at most 5000 characters.'),
  agreement: z.literal(true, 'You must agree to our terms and privacy policy.'),
})
export type ContactMessage = z.infer<typeof contactMessageSchema>

export const CONTACT_SUCCESS_MESSAGE = "Message sent successfully! We'll get back to you soon."
export const CONTACT_TOO_MANY = 'You have sent several messages already. Please try again later.'

// Account forms, shared by the client forms and the server procedures (spec §5 messages).
import { z } from 'zod'
import { AUTH_MESSAGES } from '../auth.ts'
import { PASSWORD_MIN_LENGTH } from '../constants.ts'
import { personName } from './person-name.ts'
import { actionProofInput } from './privacy.ts'

const email = z.string().trim().min(1, 'Email is required').max(254).pipe(z.email('Please enter a valid email address'))
const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordLength)
  .max(128, 'Password must be at most 128 characters')

export const signupInput = z.object({
  firstName: personName('First name'),
  lastName: personName('Last name'),
  email,
  password: newPassword,
  acceptTerms: z.literal(true, { error: AUTH_MESSAGES.terms }),
})
export type SignupInput = z.infer<typeof signupInput>

export const loginInput = z.object({
  email,
  password: z.string().min(1, 'Password is required').max(128),
  remember: z.boolean().default(true),
})

export const emailOnlyInput = z.object({ email })
export const tokenInput = z.object({ token: z.string().min(10).max(128) })
/** A verification link's token; opened away from the browser that signed up, with the password chosen then. */
export const verifyEmailInput = tokenInput.extend({ password: z.string().max(128).optional() })
export const resetPasswordInput = z.object({ token: z.string().min(10).max(128), password: newPassword })
export const changePasswordInput = z.object({ currentPassword: z.string().min(1).max(128), newPassword })
export const profileNameInput = z.object({ firstName: personName('First name'), lastName: personName('Last name') })

/** The account page's E-mail preferences: whether a person's courses' news comes by e-mail. */
export const mailPreferencesInput = z.object({ courseUpdates: z.boolean() }).strict()
/** What the card shows: the switch for all courses' news, and the courses whose news the person stopped one by one. */
export const mailPreferencesView = mailPreferencesInput.extend({ mutedCourseIds: z.array(z.string()) })
/** One course's news by e-mail, stopped (`wanted` false) or taken again. */
export const courseNewsInput = z.strictObject({ courseId: z.string().trim().min(1).max(200), wanted: z.boolean() })

/** Moving the account to another address: the new address, and a fresh proof (as for the other sensitive actions). */
export const emailChangeInput = actionProofInput.extend({ newEmail: email })
export type EmailChangeInput = z.infer<typeof emailChangeInput>

// Account forms, shared by the client forms and the server procedures (spec §5 messages).
import { z } from 'zod'
import { PASSWORD_MIN_LENGTH } from '../constants.ts'

export const AUTH_MESSAGES = {
  terms: 'You must agree to the terms and conditions',
  passwordLength: 'Password must be at least 8 characters',
  signupFailed: 'Failed to create account',
  signupSuccess: 'Account created successfully! Please check your email for verification.',
  loginFailed: 'Failed to log in',
  loginError: 'An error occurred. Please try again.',
  invalidCredentials: 'Invalid email or password',
  emailNotVerified: 'Please verify your email before logging in. Check your inbox for the verification link.',
  signOutError: 'Error signing out. Please try again.',
  notAuthenticated: 'User not authenticated',
  tooManyAttempts: 'Too many attempts. Please try again later.',
  resetRequested: 'If an account exists for that email, we have sent a link to reset your password.',
  resetDone: 'Your password has been reset. Please log in with your new password.',
  badResetLink: 'This reset link is invalid or has expired. Please request a new one.',
  emailVerified: 'Your email has been verified. You can now log in.',
  badVerifyLink: 'This verification link is invalid or has expired.',
  passwordChanged: 'Your password has been changed.',
  wrongCurrentPassword: 'Current password is incorrect',
} as const

const email = z.string().trim().min(1, 'Email is required').max(254).pipe(z.email('Please enter a valid email address'))
const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordLength)
  .max(128, 'Password must be at most 128 characters')
const name = (label: string) => z.string().trim().min(1, `${label} is required`).max(80)

export const signupInput = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
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
export const resetPasswordInput = z.object({ token: z.string().min(10).max(128), password: newPassword })
export const changePasswordInput = z.object({ currentPassword: z.string().min(1).max(128), newPassword })
export const profileNameInput = z.object({ firstName: name('First name'), lastName: name('Last name') })

/** A return URL inside this site only ("/payment", never "//evil.example" or "https://…"). */
export function safeReturnPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return fallback
  }
  return value.length > 512 ? fallback : value
}

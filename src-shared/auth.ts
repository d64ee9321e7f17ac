// Account wording (spec §5 and §8) and the return-URL rule, shared by client and server (no zod here: the
// header imports it, and it should not pull zod into the main bundle).
/** The sign-in hand-off of a school's own domain (decision 0063): where the domain's link starts it, and where the
 * platform's Continue form posts (src-server/http/sign-in-handoff.ts). */
export const HANDOFF_START_PATH = '/auth/handoff/start'
export const HANDOFF_ISSUE_PATH = '/auth/handoff'

export const AUTH_MESSAGES = {
  /** On a school's own domain (decision 0063): passwords are typed on the platform's sign-in page only. */
  passwordOnPlatform: 'Passwords are entered only on our secure sign-in page: use “Continue to sign in”.',
  handoffFailed: 'The sign-in did not complete (it may have expired). Please try again.',
  terms: 'You must agree to the terms and conditions',
  passwordLength: 'Password must be at least 8 characters',
  passwordMismatch: 'Passwords do not match',
  signupFailed: 'Failed to create account',
  signupSuccess: 'Account created successfully! Please check your email for verification.',
  loginFailed: 'Failed to log in',
  loginError: 'An error occurred. Please try again.',
  invalidCredentials: 'Invalid email or password',
  emailNotVerified: 'Please verify your email before logging in. Check your inbox for the verification link.',
  /** Staff suspended the account (decision 0160): said only after the account was proven (password, code, provider). */
  accountSuspended:
    'This account is suspended, so it cannot sign in. If you think this is a mistake, write to us through the contact page.',
  signOutError: 'Error signing out. Please try again.',
  notAuthenticated: 'User not authenticated',
  tooManyAttempts: 'Too many attempts. Please try again later.',
  resetRequested: 'If an account exists for that email, we have sent a link to reset your password.',
  resetDone: 'Your password has been reset. Please log in with your new password.',
  badResetLink: 'This reset link is invalid or has expired. Please request a new one.',
  emailVerified: 'Your email has been verified. You can now log in.',
  badVerifyLink: 'This verification link is invalid or has expired.',
  signupPasswordNeeded: 'To confirm this address, enter the password you chose when you signed up.',
  signupPasswordWrong:
    'That is not the password chosen at sign-up. If you did not sign up with this address, nothing has changed: sign up with your own password to get a link of your own.',
  verificationResent:
    'If that address has an account waiting for verification, we have sent it a new verification link.',
  passwordChanged: 'Your password has been changed.',
  wrongCurrentPassword: 'Current password is incorrect',
  twoFactorExpired: 'Your sign-in has expired. Please log in again.',
  staffTwoFactorRequired: 'Set up two-factor authentication to use the admin area.',
} as const

/** Where a staff member without the second factor STAFF_2FA=required asks for is sent to set it up. */
export const TWO_FACTOR_SETUP_PATH = '/account/security'
/** Where a sign-in of an account in its deletion's cool-off lands, on every path: the page with Cancel deletion. */
export const DELETION_CANCEL_PATH = '/account/security'

const MAX_RETURN_PATH_LENGTH = 512

/**
 * C0 controls, DEL and backslashes: URL parsers drop tabs and newlines and read a backslash as "/", so
 * "/%09/host" or "/%5Chost" can become "//host", another site.
 */
function hasUnsafeCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true
  }
  return false
}
const PERCENT_BYTE = /%([0-9a-f]{2})/gi

/**
 * A return URL inside this site only ("/payment", never "//evil.example" or "https://…"). The path is also
 * checked after each round of percent-decoding (byte by byte, so one malformed escape cannot hide another),
 * since a router or a later redirect may decode it.
 */
export function safeReturnPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || value.length > MAX_RETURN_PATH_LENGTH) return fallback
  let current = value
  for (let round = 0; round < 4; round++) {
    if (!current.startsWith('/') || current.startsWith('//') || hasUnsafeCharacter(current)) return fallback
    const decoded = current.replace(PERCENT_BYTE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    if (decoded === current) return value
    current = decoded
  }
  // Encoded more than four times over: no real link back into the site looks like that.
  return fallback
}

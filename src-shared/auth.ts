// Account wording (spec §5 and §8) and the return-URL rule, shared by client and server (no zod here: the
// header imports it, and it should not pull zod into the main bundle).
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

/** A return URL inside this site only ("/payment", never "//evil.example" or "https://…"). */
export function safeReturnPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return fallback
  }
  return value.length > 512 ? fallback : value
}

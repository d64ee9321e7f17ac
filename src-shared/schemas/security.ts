// The security page's forms (two-factor set-up and removal, ending sessions) and the second step of a log-in.
import { z } from 'zod'

/** A TOTP code (6 digits) or a recovery code (10 letters and digits, a dash or spaces allowed). */
export const secondFactorCode = z.string().trim().min(1, 'Enter the code').max(32, 'That code is too long')

export const twoFactorCodeInput = z.object({ code: secondFactorCode })
export const disableTwoFactorInput = z.object({
  password: z.string().min(1, 'Password is required').max(128),
  code: secondFactorCode,
})
export const sessionIdInput = z.object({ sessionId: z.string().min(1).max(64) })

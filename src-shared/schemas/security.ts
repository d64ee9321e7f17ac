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

// Passkeys (WebAuthn, decision 0066). The browser's answers are JSON with base64url fields; SimpleWebAuthn checks
// them cryptographically on the server, so this only bounds their shape and size.
const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/)
const clientExtensions = z.record(z.string(), z.unknown()).optional().default({})
export const passkeyRegistration = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4000),
    attestationObject: b64url(16_000),
    transports: z.array(z.string().max(20)).max(10).optional(),
    authenticatorData: b64url(16_000).optional(),
    publicKey: b64url(4000).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
  authenticatorAttachment: z.string().max(20).optional(),
  clientExtensionResults: clientExtensions,
})
export const passkeyAssertion = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4000),
    authenticatorData: b64url(16_000),
    signature: b64url(16_000),
    userHandle: b64url(200).optional(),
  }),
  authenticatorAttachment: z.string().max(20).optional(),
  clientExtensionResults: clientExtensions,
})
export const passkeyName = z.string().trim().min(1, 'Name this passkey').max(60, 'At most 60 characters')
export const addPasskeyInput = z.object({ name: passkeyName, response: passkeyRegistration })
export const passkeySignInInput = z.object({ response: passkeyAssertion, remember: z.boolean().default(true) })
/** The fresh proof that adds a passkey: a passkey signs in alone, so a stolen session must not be able to add one. */
export const passkeyOptionsInput = z.object({
  password: z.string().max(128).optional(),
  code: z.string().trim().max(32).optional(),
})
export const removePasskeyInput = passkeyOptionsInput.extend({ passkeyId: z.uuid() })

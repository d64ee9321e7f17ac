// Inputs of the studio's API keys page (decision 0060).
import { z } from 'zod'
import { API_KEY_EXPIRY_DAYS, API_SCOPES } from '../api-scopes.ts'
import { actionProofInput } from './privacy.ts'

/** A key's own fields (what the flow makes it from). */
export const apiKeyFieldsInput = z.object({
  /** The school a member acts for (a finance member's keys); absent: the caller's own school. */
  schoolId: z.uuid().optional(),
  name: z.string().trim().min(1, 'Name the key').max(80, 'Keep the name under 80 characters'),
  scopes: z.array(z.enum(API_SCOPES)).min(1, 'Choose at least one scope').max(API_SCOPES.length),
  /** Days until it expires; null: never. */
  expiresInDays: z
    .number()
    .int()
    .nullable()
    .refine((days) => (API_KEY_EXPIRY_DAYS as readonly (number | null)[]).includes(days), 'Choose an expiry'),
})

/**
 * "Create key" with a fresh proof (the password, an app code, or an e-mailed code for an account without a password):
 * a key reads (or writes) the school's data from anywhere until revoked, so a stolen session alone must not mint one.
 */
export const createApiKeyInput = apiKeyFieldsInput.extend(actionProofInput.shape)

export const apiKeyRefInput = z.object({ keyId: z.uuid(), schoolId: z.uuid().optional() })

// Inputs of the privacy procedures (issue 28): staff run a person's export by the person's account id.
import { z } from 'zod'

export const exportForPersonInput = z.object({ userId: z.uuid('Choose a person') })

/**
 * A fresh proof for a sensitive action: the password, or a code (from the authenticator app, or e-mailed to an account
 * without a password). The server decides which it accepts (auth/confirm-action.ts).
 */
export const actionProofInput = z.object({
  password: z.string().max(128).optional(),
  code: z.string().trim().max(32, 'That code is too long').optional(),
})
export type ActionProofInput = z.infer<typeof actionProofInput>

/** "Delete my account" is confirmed with a fresh proof. */
export const deleteAccountInput = actionProofInput
export type DeleteAccountInput = ActionProofInput
/** "Download my data" is confirmed with a fresh proof too: a copy of everything is worth as much as the account. */
export const requestExportInput = actionProofInput

/**
 * What an e-mailed confirmation code confirms (only the e-mail's wording differs): deleting the account, a data export,
 * linking a school's sign-in, creating a school's API key, adding a webhook endpoint, revealing or rotating its secret,
 * moving the account to another e-mail address.
 */
export const CONFIRMED_ACTIONS = [
  'delete-account',
  'export-data',
  'link-school-sign-in',
  'create-api-key',
  'add-webhook-endpoint',
  'webhook-secret',
  'change-email',
] as const
export type ConfirmedAction = (typeof CONFIRMED_ACTIONS)[number]
export const confirmationCodeInput = z
  .object({ action: z.enum(CONFIRMED_ACTIONS).default('delete-account') })
  .optional()
export const deletionForPersonInput = z.object({ userId: z.uuid('Choose a person') })

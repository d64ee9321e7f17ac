// The fields that confirm a sensitive action on /account/security (deleting the account, downloading one's data,
// removing a passkey): the password, or, for an account without one, a code we e-mail on request; a code from the
// authenticator app is offered whenever two-factor is on. The server decides (auth/confirm-action.ts).
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import type { ConfirmedAction } from '#shared/schemas/privacy.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { CodeField, PasswordField } from '../ui/form.tsx'
import { notify } from '../ui/toaster.tsx'

export interface ConfirmMethod {
  hasPassword: boolean
  hasTwoFactor: boolean
}

export function ProofFields({
  confirm,
  onSendCode,
  sending,
  codeSent = false,
  small = false,
  explain,
}: {
  confirm: ConfirmMethod
  onSendCode: () => void
  sending: boolean
  codeSent?: boolean
  small?: boolean
  /** A sentence shown above the "E-mail me a code" button (accounts without a password). */
  explain?: string
}) {
  const codeLabel = confirm.hasPassword
    ? 'Or a code from your authenticator app'
    : confirm.hasTwoFactor
      ? 'Code from the e-mail, or from your authenticator app'
      : 'Code from the e-mail'
  return (
    <>
      {confirm.hasPassword ? (
        <PasswordField label="Your password" name="password" autoComplete="current-password" />
      ) : (
        <div className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
          {explain ? <p className={css({ fontSize: 'sm' })}>{explain}</p> : null}
          <div>
            <button
              type="button"
              className={button({ variant: 'outline', ...(small ? { size: 'sm' } : {}) })}
              {...whilePending(sending, 'onClick', onSendCode)}
            >
              {sending ? 'Sending…' : codeSent ? 'Send another code' : 'E-mail me a code'}
            </button>
          </div>
        </div>
      )}
      {!confirm.hasPassword || confirm.hasTwoFactor ? <CodeField label={codeLabel} /> : null}
    </>
  )
}

/** What a form of ProofFields says when it was sent with neither the password nor a code. */
export function missingProofMessage(confirm: ConfirmMethod): string {
  return confirm.hasPassword ? 'Enter your password to confirm it is you.' : 'Enter the code to confirm.'
}

/** The proof typed into ProofFields, read from the submitted form (empty fields left out). */
export function proofFromForm(form: FormData): { password?: string; code?: string } {
  const password = String(form.get('password') ?? '') || undefined
  const code = String(form.get('code') ?? '').trim() || undefined
  return { ...(password ? { password } : {}), ...(code ? { code } : {}) }
}

/** The toasts of the "E-mail me a code" button, for the mutation that sends the code. */
export function emailedCodeToasts(onSent?: () => void) {
  return {
    onSuccess: () => {
      onSent?.()
      notify('success', 'Code sent', 'Check your e-mail: the code works once, for 15 minutes.')
    },
    onError: (caught: unknown) => notify('error', 'Could not send a code', errorMessage(caught)),
  }
}

/**
 * The e-mailed code of a privacy action (deleting the account, downloading one's data) for an account without a
 * password: `fields` spreads onto ProofFields (its button sends the code, then offers another); `reset` once the
 * action went through.
 */
export function usePrivacyCode(action: ConfirmedAction) {
  const trpc = useTRPC()
  const [codeSent, setCodeSent] = useState(false)
  const sendCode = useMutation(
    trpc.privacy.sendConfirmationCode.mutationOptions(emailedCodeToasts(() => setCodeSent(true))),
  )
  return {
    fields: {
      onSendCode: () => sendCode.mutate({ action }),
      sending: sendCode.isPending,
      codeSent,
      explain: 'Your account has no password: we e-mail you a single-use code to confirm it is you.',
    },
    reset: () => setCodeSent(false),
  }
}

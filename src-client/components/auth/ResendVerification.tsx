// 'Resend verification e-mail': on the log-in refusal of an unverified address (the typed address is known) and
// on the verify page when a link is expired or used (the visitor types it). A form of its own, with or without
// JavaScript. The server answers the same whether or not the address has an account, and limits how often.
import { useMutation } from '@tanstack/react-query'
import type { FormEvent } from 'react'
import { GENERIC_ERROR, refusalMessage } from '#client/lib/errors.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { type NativeFormResult, RESEND_VERIFICATION_INTENT } from '#shared/native-form.ts'
import { button } from '../ui/button.ts'
import { EmailField, FormAlert } from '../ui/form.tsx'
import { notify } from '../ui/toaster.tsx'
import { VerifyPageForm } from './VerifyPageForm.tsx'

const LABEL = 'Resend verification e-mail'

/** `posted`: this form's refused post, sent before the page's script ran: the address typed and its message. */
export function ResendVerification({ email, posted }: { email?: string; posted?: NativeFormResult }) {
  const trpc = useTRPC()
  const resend = useMutation(
    trpc.auth.resendVerification.mutationOptions({
      onSuccess: (result) => notify('success', 'Verification e-mail sent', result.message),
    }),
  )
  if (resend.isSuccess) return <FormAlert kind="success">{resend.data.message}</FormAlert>

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    resend.mutate({ email: String(new FormData(event.currentTarget).get('email')) })
  }
  return (
    <VerifyPageForm onSubmit={onSubmit}>
      <input type="hidden" name="intent" value={RESEND_VERIFICATION_INTENT} />
      {resend.isError ? <FormAlert>{refusalMessage(resend.error, GENERIC_ERROR)}</FormAlert> : null}
      {/* The log-in page knows the address it refused; the verify page asks for it. */}
      {email ? (
        <input type="hidden" name="email" value={email} />
      ) : (
        <EmailField defaultValue={posted?.values.email} error={posted?.fieldErrors.email} />
      )}
      <button type="submit" className={button({ variant: 'outline' })} {...submitWhilePending(resend.isPending)}>
        {resend.isPending ? 'Sending...' : LABEL}
      </button>
    </VerifyPageForm>
  )
}

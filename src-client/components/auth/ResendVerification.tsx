// 'Resend verification e-mail': on the log-in refusal of an unverified address (the typed address is known) and
// on the verify page when a link is expired or used (the visitor types it). The server answers the same whether or
// not the address has an account, and limits how often.
import { useMutation } from '@tanstack/react-query'
import type { FormEvent } from 'react'
import { GENERIC_ERROR, refusalMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { EmailField, FormAlert } from '../ui/form.tsx'
import { notify } from '../ui/toaster.tsx'

const LABEL = 'Resend verification e-mail'

export function ResendVerification({ email }: { email?: string }) {
  const trpc = useTRPC()
  const resend = useMutation(
    trpc.auth.resendVerification.mutationOptions({
      onSuccess: (result) => notify('success', 'Verification e-mail sent', result.message),
    }),
  )
  if (resend.isSuccess) return <FormAlert kind="success">{resend.data.message}</FormAlert>

  const failure = resend.isError ? <FormAlert>{refusalMessage(resend.error, GENERIC_ERROR)}</FormAlert> : null
  if (email) {
    return (
      <>
        {failure}
        <button
          type="button"
          className={button({ variant: 'outline' })}
          disabled={resend.isPending}
          onClick={() => resend.mutate({ email })}
        >
          {resend.isPending ? 'Sending...' : LABEL}
        </button>
      </>
    )
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    resend.mutate({ email: String(new FormData(event.currentTarget).get('email')) })
  }
  return (
    <form {...SCRIPT_ONLY_FORM} onSubmit={onSubmit} className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
      {failure}
      <EmailField />
      <button type="submit" className={button({ variant: 'outline' })} disabled={resend.isPending}>
        {resend.isPending ? 'Sending...' : LABEL}
      </button>
    </form>
  )
}

// My Account's E-mail address (decision 0157): move the account to another address. Asked with a fresh proof (the
// password, an app code, or a code e-mailed to the current address for an account without a password); a link goes to
// the new address and the account moves only when it is opened. A school whose single sign-on the person must use
// vouches for the address: then the card says so instead of offering the form.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { emailChangeInput } from '#shared/schemas/auth.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { serverFieldErrors } from '../ui/field-errors.tsx'
import { FormAlert, TextField } from '../ui/form.tsx'
import { ErrorState, LoadingState } from '../ui/states.tsx'
import { notify, reloadThenToast } from '../ui/toaster.tsx'
import { type ConfirmMethod, missingProofMessage, ProofFields, proofFromForm, usePrivacyCode } from './ProofFields.tsx'
import { SectionCard } from './SectionCard.tsx'

export function EmailAddressSection({ email }: { email: string }) {
  const trpc = useTRPC()
  const status = useQuery(trpc.profile.emailChange.queryOptions())
  return (
    <SectionCard
      title="E-mail address"
      description={`You sign in with ${email}, and your receipts and account e-mails go there.`}
    >
      {status.isPending ? (
        <LoadingState label="Loading…" />
      ) : status.isError ? (
        <ErrorState title="Could not load your e-mail settings" error={status.error} onRetry={() => status.refetch()} />
      ) : status.data.refusal ? (
        <p data-testid="email-change-refusal" className={css({ fontSize: 'sm' })}>
          {status.data.refusal}
        </p>
      ) : (
        <>
          {status.data.pending ? <PendingChange pending={status.data.pending} /> : null}
          <EmailChangeForm confirm={status.data.confirm} />
        </>
      )}
    </SectionCard>
  )
}

/** The link waiting at the new address, and a way to end it (a mistyped address, a change of mind). */
function PendingChange({ pending }: { pending: { email: string; expiresAt: string } }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const cancel = useMutation(
    trpc.profile.cancelEmailChange.mutationOptions(
      reloadThenToast(
        () => queryClient.invalidateQueries({ queryKey: trpc.profile.emailChange.queryKey() }),
        'Link cancelled',
      ),
    ),
  )
  return (
    <div data-testid="email-change-pending" className={css({ fontSize: 'sm', mb: '4', display: 'grid', gap: '2' })}>
      <p>
        A link waits at <strong>{pending.email}</strong> until {formatDate(pending.expiresAt, 'mediumTime')}: open it to
        move your account there. Asking again sends a new link, and the old one stops working.
      </p>
      <div>
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          {...whilePending(cancel.isPending, 'onClick', () => cancel.mutate())}
        >
          {cancel.isPending ? 'Cancelling…' : 'Cancel this change'}
        </button>
      </div>
    </div>
  )
}

function EmailChangeForm({ confirm }: { confirm: ConfirmMethod }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [error, setError] = useState<string | null>(null)
  const [fieldError, setFieldError] = useState<string | undefined>()
  const [sent, setSent] = useState<string | null>(null)
  const code = usePrivacyCode('change-email')
  const ask = useMutation(trpc.profile.requestEmailChange.mutationOptions())

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const formElement = event.currentTarget
    const form = new FormData(formElement)
    const parsed = emailChangeInput.safeParse({ newEmail: form.get('newEmail'), ...proofFromForm(form) })
    setSent(null)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      if (issue?.path[0] !== 'newEmail') return setError(issue?.message ?? 'Please check the form')
      setError(null)
      return setFieldError(issue.message)
    }
    setFieldError(undefined)
    if (!parsed.data.password && !parsed.data.code) {
      return setError(missingProofMessage(confirm))
    }
    setError(null)
    try {
      const result = await ask.mutateAsync(parsed.data)
      formElement.reset()
      code.reset()
      setSent(result.message)
      notify('success', 'Check your new inbox', result.message)
      await queryClient.invalidateQueries({ queryKey: trpc.profile.emailChange.queryKey() })
    } catch (caught) {
      // The server names the field it refused (the same address as now); anything else is said above the form.
      const onField = serverFieldErrors(caught)?.newEmail
      if (onField) setFieldError(onField)
      else setError(errorMessage(caught, 'An error occurred. Please try again.'))
    }
  }

  return (
    <form
      {...SCRIPT_ONLY_FORM}
      onSubmit={onSubmit}
      noValidate
      aria-label="Change your e-mail address"
      className={css({ display: 'flex', flexDir: 'column', gap: '4', maxW: 'md' })}
    >
      <FormAlert>{error}</FormAlert>
      {sent ? <FormAlert kind="success">{sent}</FormAlert> : null}
      <TextField
        label="New e-mail address"
        name="newEmail"
        type="email"
        autoComplete="email"
        required
        maxLength={254}
        error={fieldError}
      />
      <ProofFields confirm={confirm} {...code.fields} />
      <div>
        <button type="submit" className={button()} {...submitWhilePending(ask.isPending)}>
          {ask.isPending ? 'Sending…' : 'Send confirmation link'}
        </button>
      </div>
    </form>
  )
}

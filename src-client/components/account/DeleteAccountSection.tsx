// "Delete my account" (issue 28): confirmed with the password (or a code from the authenticator app; an account
// without a password gets a code by e-mail), then 14 days to change one's mind; while they run, this card offers
// Cancel deletion. The server checks everything (what blocks a deletion, the proof, the dates).

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { ACCOUNT_DELETION_COOL_OFF_DAYS } from '#shared/retention.ts'
import { deleteAccountInput } from '#shared/schemas/privacy.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { FormAlert } from '../ui/form.tsx'
import { ErrorState, LoadingState } from '../ui/states.tsx'
import { notify } from '../ui/toaster.tsx'
import { type ConfirmMethod, ProofFields, proofFromForm, usePrivacyCode } from './ProofFields.tsx'
import { SectionCard } from './SectionCard.tsx'

const stack = css({ display: 'flex', flexDir: 'column', gap: '4', maxW: 'md' })
const list = css({ listStyle: 'disc', pl: '5', display: 'flex', flexDir: 'column', gap: '1', fontSize: 'sm' })

export function DeleteAccountSection() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const status = useQuery(trpc.privacy.deletion.queryOptions())
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.privacy.deletion.queryKey() })
  const cancel = useMutation(
    trpc.privacy.cancelDeletion.mutationOptions({
      onSuccess: async () => {
        notify('success', 'Deletion cancelled', 'Your account stays as it was.')
        await refresh()
      },
      onError: (error) => notify('error', 'Could not cancel the deletion', errorMessage(error)),
    }),
  )

  const description = `Erases your profile, sign-in methods, progress and files after ${ACCOUNT_DELETION_COOL_OFF_DAYS} days in which you can change your mind. Invoices are kept as the law requires.`
  const phase = status.isPending
    ? undefined
    : status.isError
      ? 'error'
      : status.data.scheduled
        ? 'scheduled'
        : status.data.blockers.length > 0
          ? 'blocked'
          : 'open'
  return (
    <SectionCard title="Delete my account" description={description} phase={phase}>
      {status.isPending ? (
        <LoadingState label="Loading…" />
      ) : status.isError ? (
        <ErrorState title="Could not load this" error={status.error} onRetry={() => status.refetch()} />
      ) : status.data.scheduled ? (
        <div className={stack}>
          <FormAlert>
            Your account will be deleted on {formatDate(status.data.scheduled.eraseAfter, 'longTime')}.
          </FormAlert>
          <div>
            <button
              type="button"
              className={button()}
              {...whilePending(cancel.isPending, 'onClick', () => cancel.mutate())}
            >
              {cancel.isPending ? 'Cancelling…' : 'Cancel deletion'}
            </button>
          </div>
        </div>
      ) : status.data.blockers.length > 0 ? (
        <div className={stack}>
          <p>You cannot delete your account yet:</p>
          <ul aria-label="What to do first" className={list}>
            {status.data.blockers.map((blocker) => (
              <li key={blocker}>{blocker}</li>
            ))}
          </ul>
        </div>
      ) : (
        <div className={stack}>
          {status.data.consequences.length > 0 ? (
            <ul aria-label="What deleting your account does" className={list}>
              {status.data.consequences.map((consequence) => (
                <li key={consequence}>{consequence}</li>
              ))}
            </ul>
          ) : null}
          <DeleteForm confirm={status.data.confirm} onDone={refresh} />
        </div>
      )}
    </SectionCard>
  )
}

function DeleteForm({ confirm, onDone }: { confirm: ConfirmMethod; onDone: () => Promise<void> }) {
  const trpc = useTRPC()
  const [error, setError] = useState<string | null>(null)
  const code = usePrivacyCode('delete-account')
  const request = useMutation(trpc.privacy.requestDeletion.mutationOptions())

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const parsed = deleteAccountInput.safeParse(proofFromForm(form))
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please check the form')
    setError(null)
    try {
      const { eraseAfter } = await request.mutateAsync(parsed.data)
      notify('success', 'Your account will be deleted', `On ${formatDate(eraseAfter, 'longTime')}, unless you cancel.`)
      await onDone()
    } catch (caught) {
      setError(errorMessage(caught, 'An error occurred. Please try again.'))
    }
  }

  return (
    <form {...SCRIPT_ONLY_FORM} onSubmit={onSubmit} noValidate className={stack} aria-label="Delete my account">
      <FormAlert>{error}</FormAlert>
      <ProofFields confirm={confirm} {...code.fields} />
      <div>
        <button type="submit" className={button({ variant: 'danger' })} {...submitWhilePending(request.isPending)}>
          {request.isPending ? 'Scheduling…' : 'Delete my account'}
        </button>
      </div>
    </form>
  )
}

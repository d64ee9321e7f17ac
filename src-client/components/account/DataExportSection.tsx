// "Download my data" (issue 28): ask for a copy of everything the shop holds about you, confirmed with a fresh proof
// (the password, an app code, or an e-mailed code for an account without a password: as for deleting the account);
// a job builds the ZIP within a minute or two and e-mails you; it is listed here to download for 7 days. The server
// checks the proof before queueing anything, and that the download is yours.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useRef, useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { useFocusWhenLost } from '#client/lib/focus.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { requestExportInput } from '#shared/schemas/privacy.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { FormAlert } from '../ui/form.tsx'
import { ErrorState, LoadingState } from '../ui/states.tsx'
import { notify } from '../ui/toaster.tsx'
import { type ConfirmMethod, missingProofMessage, ProofFields, proofFromForm, usePrivacyCode } from './ProofFields.tsx'
import { SectionCard } from './SectionCard.tsx'

const STATUS = { pending: 'Being prepared…', ready: 'Ready', failed: 'Failed: please ask again', expired: 'Expired' }

export function DataExportSection({ confirm }: { confirm: ConfirmMethod }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const exports = useQuery({
    ...trpc.privacy.exports.queryOptions(),
    // While one is being prepared, look again every few seconds.
    refetchInterval: (query) => (query.state.data?.some((row) => row.status === 'pending') ? 5000 : false),
  })
  const [error, setError] = useState<string | null>(null)
  const code = usePrivacyCode('export-data')
  const ask = useMutation(trpc.privacy.requestExport.mutationOptions())
  const pending = exports.data?.some((row) => row.status === 'pending') ?? false
  // Once the proof is accepted its fields go (an export is being prepared): focus, if it was in them, goes to the
  // form's button, which now says so, not to the page.
  const submitButton = useRef<HTMLButtonElement>(null)
  useFocusWhenLost(exports.isPending ? undefined : pending ? 'pending' : 'open', () => submitButton.current)

  /**
   * A proof missing or refused: its message is said above the form, and focus goes to the field to fix (the code
   * when only a code was typed, else the password; the code for an account without one).
   */
  function refuse(formElement: HTMLFormElement, message: string) {
    setError(message)
    const password = formElement.querySelector<HTMLInputElement>('input[name="password"]')
    const codeField = formElement.querySelector<HTMLInputElement>('input[name="code"]')
    const onlyCode = Boolean(codeField?.value.trim()) && !password?.value
    ;(onlyCode ? codeField : (password ?? codeField))?.focus()
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const formElement = event.currentTarget
    const parsed = requestExportInput.safeParse(proofFromForm(new FormData(formElement)))
    if (!parsed.success) return refuse(formElement, parsed.error.issues[0]?.message ?? 'Please check the form')
    if (!parsed.data.password && !parsed.data.code) {
      return refuse(formElement, missingProofMessage(confirm))
    }
    setError(null)
    try {
      await ask.mutateAsync(parsed.data)
      formElement.reset()
      code.reset()
      notify('success', 'We are preparing your data', 'We will e-mail you when it is ready to download.')
      await queryClient.invalidateQueries({ queryKey: trpc.privacy.exports.queryKey() })
    } catch (caught) {
      refuse(formElement, errorMessage(caught, 'An error occurred. Please try again.'))
    }
  }

  return (
    <SectionCard
      title="Download my data"
      description="A ZIP of everything we hold about you: profile, orders with their invoices and credit notes, memberships and their payments, gifts you gave and received, learning and quizzes, reviews, questions with their answers, messages to instructors, live chats with support, contact messages and our replies, live sessions, service orders and, if you teach, your courses, coupons, bundles and earnings."
    >
      <form
        {...SCRIPT_ONLY_FORM}
        onSubmit={onSubmit}
        noValidate
        aria-label="Confirm and download my data"
        className={css({ display: 'flex', flexDir: 'column', gap: '4', maxW: 'md' })}
      >
        <FormAlert>{error}</FormAlert>
        {pending ? null : <ProofFields confirm={confirm} {...code.fields} />}
        <div>
          <button
            ref={submitButton}
            type="submit"
            className={button()}
            {...submitWhilePending(ask.isPending || pending)}
          >
            {pending ? 'Being prepared…' : ask.isPending ? 'Checking…' : 'Download my data'}
          </button>
        </div>
      </form>
      {exports.isPending ? (
        <LoadingState label="Loading your exports…" />
      ) : exports.isError ? (
        <ErrorState title="Could not load your exports" error={exports.error} onRetry={() => exports.refetch()} />
      ) : exports.data.length === 0 ? null : (
        <ul aria-label="Your data exports" className={css({ mt: '4', display: 'grid', gap: '2' })}>
          {exports.data.map((row) => (
            <li
              key={row.id}
              className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'center', fontSize: 'sm' })}
            >
              <span>Asked {formatDate(row.created_at, 'mediumTime')}</span>
              <span className={css({ color: 'fg.muted' })}>{STATUS[row.status]}</span>
              {row.status === 'ready' && row.expires_at ? (
                <a
                  href={`/api/account/exports/${row.id}.zip`}
                  download
                  className={css({ textDecoration: 'underline', fontWeight: 'medium' })}
                >
                  Download ZIP ({Math.max(1, Math.round((row.size_bytes ?? 0) / 1024))} KB, until{' '}
                  {formatDate(row.expires_at, 'mediumTime')})
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  )
}

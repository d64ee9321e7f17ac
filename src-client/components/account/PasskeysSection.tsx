// Passkeys on /account/security (issue 28, decision 0066): the list (name, added, last used), Add a passkey (the
// password or a code first, then the browser's own dialog, through @simplewebauthn/browser, loaded only on click) and
// Remove, which asks for the password or a code too. The server keeps the challenge and checks everything.

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { errorMessage, passkeyFailure } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { FormAlert, TextField } from '../ui/form.tsx'
import { EmptyState } from '../ui/states.tsx'
import { notify } from '../ui/toaster.tsx'
import { emailedCodeToasts, ProofFields, proofFromForm } from './ProofFields.tsx'
import { SectionCard, securityRow } from './SectionCard.tsx'

type Overview = RouterOutputs['security']['overview']
type Passkey = Overview['passkeys'][number]

const stack = css({ display: 'flex', flexDir: 'column', gap: '3', maxW: 'md' })

export function PasskeysSection({ overview }: { overview: Overview }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.security.overview.queryKey() })
  const [removing, setRemoving] = useState<string | null>(null)
  return (
    <SectionCard
      title="Passkeys"
      description="Sign in with your fingerprint, face or device PIN instead of a password and code. A passkey counts as both."
    >
      <div className={css({ display: 'flex', flexDir: 'column', gap: '5' })}>
        {overview.passkeys.length === 0 ? (
          <EmptyState title="No passkeys yet" />
        ) : (
          <ul aria-label="Your passkeys" className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
            {overview.passkeys.map((passkey) => (
              <li key={passkey.id} data-testid="passkey-row" className={securityRow}>
                <div className={css({ minW: '0' })}>
                  <p className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{passkey.name}</p>
                  <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                    Added {formatDate(passkey.createdAt, 'mediumTime')} · Last used{' '}
                    {passkey.lastUsedAt ? formatDate(passkey.lastUsedAt, 'mediumTime') : 'never'}
                  </p>
                </div>
                {removing === passkey.id ? null : (
                  <button
                    type="button"
                    className={button({ variant: 'outline', size: 'sm' })}
                    aria-label={`Remove passkey ${passkey.name}`}
                    onClick={() => setRemoving(passkey.id)}
                  >
                    Remove
                  </button>
                )}
                {removing === passkey.id ? (
                  <RemoveForm
                    passkey={passkey}
                    confirm={overview.confirm}
                    onDone={async () => {
                      setRemoving(null)
                      await refresh()
                    }}
                    onCancel={() => setRemoving(null)}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {overview.passkeyRefusal ? (
          <p data-testid="passkey-refusal" className={css({ color: 'fg.muted' })}>
            {overview.passkeyRefusal}.
          </p>
        ) : (
          <AddForm confirm={overview.confirm} onDone={refresh} />
        )}
      </div>
    </SectionCard>
  )
}

function AddForm({ confirm, onDone }: { confirm: Overview['confirm']; onDone: () => Promise<void> }) {
  const trpc = useTRPC()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const options = useMutation(trpc.security.passkeyOptions.mutationOptions())
  const add = useMutation(trpc.security.addPasskey.mutationOptions())
  const sendCode = useMutation(trpc.security.sendRemovalCode.mutationOptions(emailedCodeToasts()))

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const formElement = event.currentTarget
    const form = new FormData(formElement)
    const name = String(form.get('name') ?? '').trim()
    if (!name) return setError('Name this passkey (for example, the device it is on).')
    const proof = proofFromForm(form)
    if (!proof.password && !proof.code) return setError('Enter your password or a code to confirm.')
    setError(null)
    setBusy(true)
    try {
      const optionsJSON = await options.mutateAsync(proof)
      const { startRegistration } = await import('@simplewebauthn/browser')
      const response = await startRegistration({ optionsJSON: optionsJSON as never })
      await add.mutateAsync({ name, response: response as never })
      formElement.reset()
      notify('success', 'Passkey added', `You can now sign in with "${name}".`)
      await onDone()
    } catch (caught) {
      setError(
        passkeyFailure(
          caught,
          'No passkey was made (the dialog was closed or timed out).',
          'The passkey could not be added. Please try again.',
        ),
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <form {...SCRIPT_ONLY_FORM} onSubmit={onSubmit} noValidate className={stack} aria-label="Add a passkey">
      <FormAlert>{error}</FormAlert>
      <TextField label="Passkey name" name="name" maxLength={60} placeholder="e.g. My laptop" autoComplete="off" />
      <ProofFields confirm={confirm} onSendCode={() => sendCode.mutate()} sending={sendCode.isPending} />
      <div>
        <button type="submit" className={button()} {...submitWhilePending(busy)}>
          {busy ? 'Waiting for your device…' : 'Add a passkey'}
        </button>
      </div>
    </form>
  )
}

function RemoveForm({
  passkey,
  confirm,
  onDone,
  onCancel,
}: {
  passkey: Passkey
  confirm: Overview['confirm']
  onDone: () => Promise<void>
  onCancel: () => void
}) {
  const trpc = useTRPC()
  const [error, setError] = useState<string | null>(null)
  const remove = useMutation(trpc.security.removePasskey.mutationOptions())
  const sendCode = useMutation(trpc.security.sendRemovalCode.mutationOptions(emailedCodeToasts()))

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const proof = proofFromForm(form)
    if (!proof.password && !proof.code) return setError('Enter your password or a code to confirm.')
    setError(null)
    try {
      await remove.mutateAsync({ passkeyId: passkey.id, ...proof })
      notify('success', 'Passkey removed', `"${passkey.name}" can no longer sign in.`)
      await onDone()
    } catch (caught) {
      setError(errorMessage(caught, 'An error occurred. Please try again.'))
    }
  }

  return (
    <form
      {...SCRIPT_ONLY_FORM}
      onSubmit={onSubmit}
      noValidate
      className={css({ w: 'full', display: 'flex', flexDir: 'column', gap: '3' })}
      aria-label={`Remove passkey ${passkey.name}`}
    >
      <FormAlert>{error}</FormAlert>
      <ProofFields confirm={confirm} onSendCode={() => sendCode.mutate()} sending={sendCode.isPending} small />
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <button
          type="submit"
          className={button({ variant: 'danger', size: 'sm' })}
          {...submitWhilePending(remove.isPending)}
        >
          {remove.isPending ? 'Removing…' : 'Remove passkey'}
        </button>
        <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onCancel}>
          Keep it
        </button>
      </div>
    </form>
  )
}

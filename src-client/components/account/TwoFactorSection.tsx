// Two-factor authentication on the security page: set up (QR code and the key to type by hand, then the app's first
// code), the ten recovery codes shown once, and turning it off with the password and a code.

import { QrCode } from '@ark-ui/react/qr-code'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { disableTwoFactorInput, twoFactorCodeInput } from '#shared/schemas/security.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { CodeField, FormAlert, PasswordField } from '../ui/form.tsx'
import { notify } from '../ui/toaster.tsx'
import { useCopy } from '../ui/use-copy.ts'
import { emailedCodeToasts, ProofFields, proofFromForm } from './ProofFields.tsx'
import { SectionCard } from './SectionCard.tsx'

type Overview = RouterOutputs['security']['overview']
type Enrolment = RouterOutputs['security']['startTotp']

const stack = css({ display: 'flex', flexDir: 'column', gap: '4', maxW: 'md' })
const row = css({ display: 'flex', flexWrap: 'wrap', gap: '3' })
const wrappingButton = button({ wrap: true })
const mono = css({ fontFamily: 'mono', fontSize: 'md', letterSpacing: 'wide', wordBreak: 'break-all' })

export function TwoFactorSection({ overview }: { overview: Overview }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null)
  const [recoveryCodes, setRecoveryCodes] = useState<{ codes: string[]; fresh: boolean } | null>(null)
  const start = useMutation(trpc.security.startTotp.mutationOptions())
  const renew = useMutation(trpc.security.newRecoveryCodes.mutationOptions())
  const disable = useMutation(trpc.security.disableTotp.mutationOptions())
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.security.overview.queryKey() })

  const sendCode = useMutation(trpc.security.sendRemovalCode.mutationOptions(emailedCodeToasts()))
  const [startError, setStartError] = useState<string | null>(null)

  // A fresh proof first (the password, or an e-mailed code without one): a stolen session cannot turn it on.
  async function begin(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const proof = proofFromForm(new FormData(event.currentTarget))
    if (!proof.password && !proof.code) return setStartError('Enter your password or a code to confirm.')
    setStartError(null)
    try {
      setEnrolment(await start.mutateAsync(proof))
    } catch (caught) {
      setStartError(errorMessage(caught, 'Could not start the set-up. Please try again.'))
    }
  }

  const status = overview.twoFactor
  const description = 'A code from an authenticator app on your phone, asked for after your password.'
  // What the card shows; a change that removes the pressed button moves focus into the new content (SectionCard).
  const phase = recoveryCodes ? 'codes' : status.enabled ? 'on' : enrolment ? 'enrol' : 'off'
  if (recoveryCodes) {
    return (
      <SectionCard title="Two-factor authentication" description={description} phase={phase}>
        <RecoveryCodes
          codes={recoveryCodes.codes}
          intro={
            recoveryCodes.fresh
              ? 'Two-factor authentication is on. Save these recovery codes somewhere safe: each one signs you in once if you lose your phone. They are shown only now.'
              : 'Your new recovery codes: the old ones no longer work. Save these somewhere safe; they are shown only now.'
          }
          onDone={async () => {
            setRecoveryCodes(null)
            await refresh()
          }}
        />
      </SectionCard>
    )
  }
  return (
    <SectionCard title="Two-factor authentication" description={description} phase={phase}>
      {status.enabled ? (
        <div className={stack}>
          <p data-refocus>
            <strong>On</strong>
            {status.enabledAt ? ` since ${formatDate(status.enabledAt, 'medium')}` : ''}. {status.recoveryCodesLeft} of
            10 recovery codes left.
          </p>
          <PasswordAndCodeForm
            title="New recovery codes"
            note="Replaces all ten; the old ones stop working."
            submit="Get new codes"
            pending="Creating..."
            run={async (input) => {
              const { recoveryCodes: codes } = await renew.mutateAsync(input)
              notify('success', 'New recovery codes created')
              setRecoveryCodes({ codes, fresh: false })
            }}
          />
          <PasswordAndCodeForm
            title="Turn off two-factor authentication"
            submit="Turn off"
            pending="Turning off..."
            danger
            run={async (input) => {
              await disable.mutateAsync(input)
              notify('success', 'Two-factor authentication is off')
              await refresh()
            }}
          />
        </div>
      ) : enrolment ? (
        <EnrolForm
          enrolment={enrolment}
          onCancel={() => setEnrolment(null)}
          onDone={(codes) => {
            setEnrolment(null)
            setRecoveryCodes({ codes, fresh: true })
          }}
        />
      ) : (
        <div className={stack}>
          {overview.staffMustEnrol ? (
            <FormAlert>Your role needs two-factor authentication before you can use the admin area.</FormAlert>
          ) : null}
          <p>Off. Turn it on so that a stolen password alone cannot open your account.</p>
          <form
            {...SCRIPT_ONLY_FORM}
            onSubmit={begin}
            noValidate
            className={stack}
            aria-label="Set up two-factor authentication"
          >
            <FormAlert>{startError}</FormAlert>
            <ProofFields confirm={overview.confirm} onSendCode={() => sendCode.mutate()} sending={sendCode.isPending} />
            <div>
              <button type="submit" className={wrappingButton} {...submitWhilePending(start.isPending)}>
                {start.isPending ? 'Starting...' : 'Set up two-factor authentication'}
              </button>
            </div>
          </form>
        </div>
      )}
    </SectionCard>
  )
}

function EnrolForm({
  enrolment,
  onCancel,
  onDone,
}: {
  enrolment: Enrolment
  onCancel: () => void
  onDone: (codes: string[]) => void
}) {
  const trpc = useTRPC()
  const [error, setError] = useState<string | null>(null)
  const confirm = useMutation(trpc.security.confirmTotp.mutationOptions())

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = twoFactorCodeInput.safeParse({ code: new FormData(event.currentTarget).get('code') })
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Enter the code')
    setError(null)
    try {
      const { recoveryCodes } = await confirm.mutateAsync(parsed.data)
      notify('success', 'Two-factor authentication is on')
      onDone(recoveryCodes)
    } catch (caught) {
      setError(errorMessage(caught, 'An error occurred. Please try again.'))
    }
  }

  return (
    <div className={stack}>
      <ol className={css({ listStyle: 'decimal', pl: '5', display: 'flex', flexDir: 'column', gap: '2' })}>
        <li>Open your authenticator app (Google Authenticator, 1Password, Authy…) and scan this QR code.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <QrCode.Root
        value={enrolment.uri}
        encoding={{ ecc: 'M' }}
        className={css({ w: '44', h: '44', p: '2', bg: 'white', borderWidth: '1px', borderColor: 'line' })}
      >
        <QrCode.Frame role="img" aria-label="QR code to scan with your authenticator app">
          <QrCode.Pattern className={css({ fill: 'black' })} />
        </QrCode.Frame>
      </QrCode.Root>
      <div>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Can't scan it? Enter this key in the app instead:</p>
        <p className={mono} data-testid="totp-manual-key">
          {enrolment.manualKey}
        </p>
      </div>
      <form {...SCRIPT_ONLY_FORM} onSubmit={onSubmit} noValidate className={stack}>
        <FormAlert>{error}</FormAlert>
        <CodeField label="Code from the app" inputMode="numeric" required />
        <div className={row}>
          <button type="submit" className={button()} {...submitWhilePending(confirm.isPending)}>
            {confirm.isPending ? 'Checking...' : 'Turn on'}
          </button>
          <button type="button" className={button({ variant: 'outline' })} onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  )
}

function RecoveryCodes({ codes, intro, onDone }: { codes: string[]; intro: string; onDone: () => void }) {
  const { copied, copy } = useCopy()
  return (
    <div className={stack}>
      <FormAlert kind="success">{intro}</FormAlert>
      <ul
        aria-label="Recovery codes"
        className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '2' })}
      >
        {codes.map((code) => (
          <li key={code} className={mono}>
            {code}
          </li>
        ))}
      </ul>
      <div className={row}>
        <button type="button" className={button({ variant: 'outline' })} onClick={() => copy(codes.join('\n'))}>
          {copied ? 'Copied' : 'Copy codes'}
        </button>
        <button type="button" className={button()} onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  )
}

/** A form that asks for the current password and a code (from the app or a recovery code) before `run`. */
function PasswordAndCodeForm({
  title,
  note,
  submit,
  pending,
  danger = false,
  run,
}: {
  title: string
  note?: string
  submit: string
  pending: string
  danger?: boolean
  run: (input: { password: string; code: string }) => Promise<void>
}) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const formElement = event.currentTarget
    const form = new FormData(formElement)
    const parsed = disableTwoFactorInput.safeParse({ password: form.get('password'), code: form.get('code') })
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please check the form')
    setError(null)
    setBusy(true)
    try {
      await run(parsed.data)
      formElement.reset()
    } catch (caught) {
      setError(errorMessage(caught, 'An error occurred. Please try again.'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form {...SCRIPT_ONLY_FORM} onSubmit={onSubmit} noValidate className={stack} aria-label={title}>
      <h3 className={css({ fontWeight: 'semibold', mt: '2' })}>{title}</h3>
      {note ? <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{note}</p> : null}
      <FormAlert>{error}</FormAlert>
      <PasswordField label="Current password" name="password" autoComplete="current-password" />
      <CodeField label="Code from the app or a recovery code" />
      <div>
        <button
          type="submit"
          className={button({ variant: danger ? 'danger' : 'outline' })}
          {...submitWhilePending(busy)}
        >
          {busy ? pending : submit}
        </button>
      </div>
    </form>
  )
}

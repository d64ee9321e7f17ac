// "Sign in with a passkey" on the log-in page (decision 0066): the server's options, the browser's own dialog
// (@simplewebauthn/browser, loaded only on click so no page carries it up front), then the session; a passkey counts
// as both factors. Shown only where the browser supports passkeys.
import { useMutation } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { passkeyFailure, ssoSchoolOf } from '#client/lib/errors.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { FormAlert } from '../ui/form.tsx'

type SignedIn = RouterOutputs['auth']['passkeySignIn']

export function PasskeySignIn({
  onSignedIn,
  onSsoRequired,
}: {
  onSignedIn: (user: SignedIn) => Promise<void>
  /** The account's school holds it to its own sign-in: the page offers that school's button (its slug). */
  onSsoRequired?: (school: string) => void
}) {
  const trpc = useTRPC()
  const [supported, setSupported] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const options = useMutation(trpc.auth.passkeyOptions.mutationOptions())
  const signIn = useMutation(trpc.auth.passkeySignIn.mutationOptions())
  useEffect(() => setSupported(typeof window.PublicKeyCredential === 'function'), [])
  if (!supported) return null

  async function start() {
    setError(null)
    setBusy(true)
    try {
      const optionsJSON = await options.mutateAsync()
      const { startAuthentication } = await import('@simplewebauthn/browser')
      const response = await startAuthentication({ optionsJSON: optionsJSON as never })
      await onSignedIn(await signIn.mutateAsync({ response: response as never, remember: true }))
    } catch (caught) {
      const school = ssoSchoolOf(caught)
      if (school) onSsoRequired?.(school)
      setError(
        passkeyFailure(
          caught,
          'No passkey was used (the dialog was closed or timed out).',
          'That passkey could not be used. Please try again.',
        ),
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
      <FormAlert>{error}</FormAlert>
      <button
        type="button"
        className={button({ variant: 'outline', size: 'lg' })}
        {...whilePending(busy, 'onClick', () => void start())}
      >
        {busy ? 'Waiting for your device…' : 'Sign in with a passkey'}
      </button>
    </div>
  )
}

// The second step of a log-in for an account with two-factor authentication: the code from the authenticator app, or
// one of the recovery codes. The password step (or the OAuth provider) left a pending log-in in an HttpOnly cookie;
// this page's answer turns it into the session. Works before JavaScript too: the form posts to /two-factor.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { AUTH_MESSAGES, safeReturnPath } from '#shared/auth.ts'
import { twoFactorCodeInput } from '#shared/schemas/security.ts'
import { css } from '#styled-system/css'
import { AuthCard, authLink } from '../components/auth/AuthCard.tsx'
import { button } from '../components/ui/button.ts'
import { FormAlert, TextField } from '../components/ui/form.tsx'
import { Spinner } from '../components/ui/states.tsx'
import { notify, notifyError } from '../components/ui/toaster.tsx'
import { errorCode, errorMessage, isClientError, isServiceUnavailable } from '../lib/errors.ts'
import { useNativeFormResult } from '../lib/native-form.ts'
import { optionalText, searchParams } from '../lib/search-params.ts'
import { setSessionUser } from '../lib/session.ts'

export const Route = createFileRoute('/two-factor')({
  validateSearch: searchParams({ redirect: optionalText }),
  head: () => ({ meta: [{ title: 'Two-factor authentication | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  component: TwoFactorPage,
})

function TwoFactorPage() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const returnTo = safeReturnPath(search.redirect)
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const posted = useNativeFormResult('/two-factor')
  const [error, setError] = useState<string | null>(posted?.formError ?? posted?.fieldErrors.code ?? null)
  const [expired, setExpired] = useState(false)
  const verify = useMutation(trpc.auth.verifyTwoFactor.mutationOptions())

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const formElement = event.currentTarget
    const parsed = twoFactorCodeInput.safeParse({ code: new FormData(formElement).get('code') })
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Enter the code')
    setError(null)
    try {
      const user = await verify.mutateAsync(parsed.data)
      await queryClient.invalidateQueries()
      await setSessionUser(queryClient, trpc, user)
      // An account waiting out its deletion's cool-off: the security page offers to cancel it.
      if (user?.deletionScheduledFor) {
        notify('info', 'Your account is scheduled for deletion', 'You can cancel the deletion on this page.')
        return void (await navigate({ to: '/account/security' }))
      }
      notify('success', 'Login successful')
      await navigate({ href: returnTo })
    } catch (caught) {
      formElement.reset()
      if (isClientError(caught)) {
        const message = caught.message || AUTH_MESSAGES.loginFailed
        setError(message)
        setExpired(errorCode(caught) === 'UNAUTHORIZED')
        notify('error', 'Login failed', message)
      } else if (isServiceUnavailable(caught)) {
        setError(errorMessage(caught))
        notifyError(caught)
      } else {
        setError(AUTH_MESSAGES.loginError)
        notify('error', 'Login error', AUTH_MESSAGES.loginError)
      }
    }
  }

  const backToLogin = returnTo.startsWith('/admin') ? '/admin/login' : '/login'
  return (
    <AuthCard title="Two-factor authentication" subtitle="Enter the 6-digit code from your authenticator app.">
      <form method="post" onSubmit={onSubmit} className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
        {error ? <FormAlert>{error}</FormAlert> : null}
        <TextField
          label="Authentication code"
          name="code"
          inputMode="text"
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={32}
          required
          hint="Lost your phone? Enter one of your recovery codes instead (each works once)."
        />
        <button type="submit" className={button({ size: 'lg' })} disabled={verify.isPending}>
          {verify.isPending ? <Spinner label="Verifying" /> : null}
          {verify.isPending ? 'Verifying...' : 'Verify'}
        </button>
      </form>
      <p className={css({ textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })}>
        {expired ? 'Your sign-in has expired. ' : null}
        <Link to={backToLogin} className={authLink}>
          Back to log in
        </Link>
      </p>
    </AuthCard>
  )
}

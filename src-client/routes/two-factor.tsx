// The second step of a log-in for an account with two-factor authentication: the code from the authenticator app, or
// one of the recovery codes. The password step (or the OAuth provider) left a pending log-in in an HttpOnly cookie;
// this page's answer turns it into the session. Works before JavaScript too: the form posts to /two-factor.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { safeReturnPath } from '#shared/auth.ts'
import { twoFactorCodeInput } from '#shared/schemas/security.ts'
import { css } from '#styled-system/css'
import { AuthCard, authLink } from '../components/auth/AuthCard.tsx'
import { loginFailure, useSignedIn } from '../components/auth/sign-in.ts'
import { button } from '../components/ui/button.ts'
import { CodeField, FormAlert } from '../components/ui/form.tsx'
import { Spinner } from '../components/ui/states.tsx'
import { errorCode, isClientError } from '../lib/errors.ts'
import { useNativeFormResult } from '../lib/native-form.ts'
import { optionalText, searchParams } from '../lib/search-params.ts'

export const Route = createFileRoute('/two-factor')({
  validateSearch: searchParams({ redirect: optionalText }),
  head: () => ({ meta: [{ title: 'Two-factor authentication | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  component: TwoFactorPage,
})

function TwoFactorPage() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const returnTo = safeReturnPath(search.redirect)
  const queryClient = useQueryClient()
  const signedIn = useSignedIn(returnTo)
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
      await signedIn(user)
    } catch (caught) {
      formElement.reset()
      setError(loginFailure(caught))
      if (isClientError(caught)) setExpired(errorCode(caught) === 'UNAUTHORIZED')
    }
  }

  const backToLogin = returnTo.startsWith('/admin') ? '/admin/login' : '/login'
  return (
    <AuthCard title="Two-factor authentication" subtitle="Enter the 6-digit code from your authenticator app.">
      <form method="post" onSubmit={onSubmit} className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
        <FormAlert>{error}</FormAlert>
        {/* The page asks for this one thing, right after the password: the code is typed at once. */}
        <CodeField
          label="Authentication code"
          inputMode="text"
          required
          autoFocus
          hint="Lost your phone? Enter one of your recovery codes instead (each works once)."
        />
        <button type="submit" className={button({ size: 'lg' })} {...submitWhilePending(verify.isPending)}>
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

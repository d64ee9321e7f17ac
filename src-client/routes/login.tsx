import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { AUTH_MESSAGES, safeReturnPath } from '#shared/auth.ts'
import { loginFields } from '#shared/native-form.ts'
import { css } from '#styled-system/css'
import { AuthCard, authLink } from '../components/auth/AuthCard.tsx'
import { HandedSignIn, usePasswordsHandedOff } from '../components/auth/HandedSignIn.tsx'
import { PasskeySignIn } from '../components/auth/PasskeySignIn.tsx'
import { ResendVerification } from '../components/auth/ResendVerification.tsx'
import { SchoolSignIn } from '../components/auth/SchoolSignIn.tsx'
import { SocialButtons } from '../components/auth/SocialButtons.tsx'
import { loginFailure, useSignedIn } from '../components/auth/sign-in.ts'
import { button } from '../components/ui/button.ts'
import { CheckboxField, EmailField, FormAlert, PasswordField } from '../components/ui/form.tsx'
import { Spinner } from '../components/ui/states.tsx'
import { isClientError, ssoSchoolOf } from '../lib/errors.ts'
import { postedFields, useNativeFormResult } from '../lib/native-form.ts'
import { optionalText, searchParams } from '../lib/search-params.ts'
import { leaveIfSignedIn, loadSignInProviders } from '../lib/session.ts'
import { submitWhilePending } from '../lib/while-pending.ts'

// `school`: a school's slug, whose single sign-on the page then offers (decision 0062).
// `handoff=failed`: a sign-in handed to the platform's page did not complete (src-server/http/sign-in-handoff.ts).
const routeSearch = searchParams({ redirect: optionalText, school: optionalText, handoff: optionalText })

export const Route = createFileRoute('/login')({
  validateSearch: routeSearch,
  beforeLoad: leaveIfSignedIn,
  loaderDeps: ({ search }) => ({ school: search.school }),
  loader: ({ context, deps }) =>
    Promise.all([
      loadSignInProviders({ context }),
      deps.school
        ? context.queryClient
            .ensureQueryData(context.trpc.schoolSso.forSchool.queryOptions({ slug: deps.school }))
            .catch(() => null)
        : null,
    ]),
  head: () => ({ meta: [{ title: 'Log in | SkillForge' }] }),
  component: LoginPage,
})

function LoginPage() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const returnTo = safeReturnPath(search.redirect)
  const navigate = useNavigate()
  // After a post sent before the page's JavaScript arrived, the server rendered the page with its answer.
  const posted = useNativeFormResult('/login')
  const [error, setError] = useState<string | null>(
    posted?.formError ?? (search.handoff === 'failed' ? AUTH_MESSAGES.handoffFailed : null),
  )
  const handedOff = usePasswordsHandedOff()
  /** A member held to a school's single sign-on: that school's sign-in button comes with the refusal. */
  const [ssoSchool, setSsoSchool] = useState<string | undefined>(posted?.ssoSchool)
  /** The address refused as not verified yet: the alert then offers a new link. */
  const [unverified, setUnverified] = useState<string | null>(
    posted?.formError === AUTH_MESSAGES.emailNotVerified ? (posted.values.email ?? null) : null,
  )
  const login = useMutation(trpc.auth.login.mutationOptions())

  /** After the password (no second factor) or a passkey: the session is set. */
  const signedIn = useSignedIn(returnTo)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const input = loginFields(postedFields(event.currentTarget))
    setError(null)
    setUnverified(null)
    setSsoSchool(undefined)
    try {
      const user = await login.mutateAsync(input)
      // The account has a second factor: its code comes next, and only then the session.
      if (user && 'twoFactor' in user)
        return void (await navigate({ to: '/two-factor', search: { redirect: returnTo } }))
      await signedIn(user)
    } catch (caught) {
      const message = loginFailure(caught)
      setError(message)
      if (isClientError(caught) && message === AUTH_MESSAGES.emailNotVerified) setUnverified(input.email)
      setSsoSchool(ssoSchoolOf(caught))
    }
  }

  return (
    <AuthCard title="Welcome back" subtitle="Log in to your account to continue">
      {/* Above the log-in form, not in it: the resend button submits a form of its own (forms do not nest). */}
      <FormAlert>{error}</FormAlert>
      {unverified ? <ResendVerification key={unverified} email={unverified} /> : null}
      <SchoolSignIn slug={ssoSchool ?? search.school} redirect={returnTo} />
      {handedOff ? (
        <HandedSignIn redirect={returnTo} />
      ) : (
        <PasswordSignIn
          onSubmit={onSubmit}
          pending={login.isPending}
          email={posted?.values.email}
          remember={posted ? posted.values.remember === 'on' : undefined}
        />
      )}
      {handedOff ? null : <PasskeySignIn onSignedIn={signedIn} onSsoRequired={setSsoSchool} />}
      <SocialButtons redirect={returnTo} />
      <p className={css({ textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })}>
        Don't have an account?{' '}
        <Link to="/signup" className={authLink}>
          Create an account
        </Link>
      </p>
    </AuthCard>
  )
}

/** The e-mail and password form (the platform's host only). */
function PasswordSignIn(props: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void
  pending: boolean
  email?: string
  remember?: boolean
}) {
  const { onSubmit, pending } = props
  return (
    <form method="post" onSubmit={onSubmit} className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
      <EmailField defaultValue={props.email} />
      <PasswordField label="Password" name="password" autoComplete="current-password" required />
      <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center' })}>
        <CheckboxField label="Remember me" name="remember" defaultChecked={props.remember} />
        <Link to="/forgot-password" className={authLink}>
          Forgot password?
        </Link>
      </div>
      <button type="submit" className={button({ size: 'lg' })} {...submitWhilePending(pending)}>
        {pending ? <Spinner label="Logging in" /> : null}
        {pending ? 'Logging in...' : 'Log In'}
      </button>
    </form>
  )
}

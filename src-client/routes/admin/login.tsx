// Admin log-in: e-mail and password through the shop's session system; only staff get in (checked on the server).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { optionalText, searchParams } from '#client/components/admin/search.ts'
import { errorText } from '#client/components/admin/styles.ts'
import { SocialButtons } from '#client/components/auth/SocialButtons.tsx'
import { button } from '#client/components/ui/button.ts'
import { raisedCard } from '#client/components/ui/card.ts'
import { EmailField, PasswordField } from '#client/components/ui/form.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { errorCode, errorMessage, isClientError, isServiceUnavailable } from '#client/lib/errors.ts'
import { useNativeFormResult } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { TWO_FACTOR_SETUP_PATH } from '#shared/auth.ts'
import { describeSignInFailure } from '#shared/sign-in-failures.ts'
import { css, cx } from '#styled-system/css'

// `error`: a Google or Facebook staff sign-in's failure code (`via` the provider), put in the page's own words.
const searchSchema = searchParams({ error: optionalText, via: optionalText, redirect: optionalText })

export const Route = createFileRoute('/admin/login')({
  validateSearch: searchSchema,
  // Staff who are already signed in go straight to the dashboard.
  beforeLoad: async ({ context, search }) => {
    if (search.error) return
    const me = await context.queryClient
      .fetchQuery({ ...context.trpc.admin.session.me.queryOptions(), staleTime: 30_000 })
      .catch(() => null)
    if (me) throw redirect({ to: '/admin' })
  },
  loader: ({ context }) =>
    context.queryClient.ensureQueryData(context.trpc.auth.providers.queryOptions()).catch(() => null),
  head: () => ({ meta: [{ title: 'Admin Login | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  component: AdminLoginPage,
})

const FAILED = 'Invalid email or password. Please try again.'

/** A provider's failure in the page's own words (decision 0144): text in the address is never shown. */
function providerFailure(search: { error?: string; via?: string }) {
  if (!search.error) return undefined
  const failure = describeSignInFailure(search.error, search.via)
  return `${failure.title}: ${failure.message}`
}

function AdminLoginPage() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  // After a post sent before the page's JavaScript arrived, the server rendered the page with its answer.
  const posted = useNativeFormResult('/admin/login')
  const [error, setError] = useState<string | null>(posted?.formError ?? providerFailure(search) ?? null)

  const login = useMutation(
    trpc.admin.session.login.mutationOptions({
      onSuccess: async (result) => {
        const target = search.redirect?.startsWith('/admin') ? search.redirect : '/admin'
        // The second factor's code comes next; no session yet.
        if (result.twoFactor) return void (await navigate({ to: '/two-factor', search: { redirect: target } }))
        await queryClient.invalidateQueries()
        if (result.mustEnrolTwoFactor) {
          notify('info', 'Set up two-factor authentication', 'The admin area needs it for your role.')
          return void (await navigate({ href: TWO_FACTOR_SETUP_PATH }))
        }
        notify('success', 'Login Successful', 'Welcome to the admin dashboard!')
        await navigate({ to: target })
      },
      onError: (failure) => {
        if (errorCode(failure) === 'TOO_MANY_REQUESTS') {
          setError(failure.message)
          notify('error', 'Login Failed', failure.message)
        } else if (isClientError(failure)) {
          setError(FAILED)
          notify('error', 'Login Failed', FAILED)
        } else if (isServiceUnavailable(failure)) {
          setError(errorMessage(failure))
          notifyError(failure)
        } else {
          setError('An error occurred during login.')
          notify('error', 'Login Error', 'An error occurred during login.')
        }
      },
    }),
  )

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const email = String(form.get('email') ?? '')
    const password = String(form.get('password') ?? '')
    if (!email.trim() || !password) {
      setError('Please enter your email and password.')
      return
    }
    setError(null)
    login.mutate({ email, password })
  }

  return (
    <main className={css({ minH: '100vh', display: 'grid', placeItems: 'center', bg: 'canvas', p: '4' })}>
      <div className={cx(raisedCard, css({ w: 'full', maxW: 'md', p: '8' }))}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', textAlign: 'center' })}>Admin Login</h1>
        <p className={css({ color: 'fg.muted', textAlign: 'center', mt: '1', mb: '6', fontSize: 'sm' })}>
          Sign in to manage courses, categories and your team.
        </p>
        {error ? (
          <p role="alert" className={`${errorText} ${css({ mb: '4', textAlign: 'center' })}`}>
            {error}
          </p>
        ) : null}
        <form
          method="post"
          onSubmit={submit}
          noValidate
          className={css({ display: 'flex', flexDir: 'column', gap: '4' })}
        >
          <EmailField autoComplete="username" defaultValue={posted?.values.email} />
          <PasswordField label="Password" name="password" autoComplete="current-password" required />
          <button type="submit" className={button({ size: 'lg' })} {...submitWhilePending(login.isPending)}>
            {login.isPending ? 'Signing in...' : 'Sign in'}
          </button>
        </form>
        <div className={css({ mt: '6' })}>
          <SocialButtons mode="admin" />
        </div>
      </div>
    </main>
  )
}

import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useEffect, useState } from 'react'
import { keepReturnAfterSignup } from '#client/lib/return-after-signup.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { AUTH_MESSAGES, safeReturnPath } from '#shared/auth.ts'
import { SIGNUP_REDIRECT_MS } from '#shared/constants.ts'
import { firstIssueByField, signupFields } from '#shared/native-form.ts'
import { css } from '#styled-system/css'
import { AuthCard, authLink } from '../components/auth/AuthCard.tsx'
import { HandedSignIn, usePasswordsHandedOff } from '../components/auth/HandedSignIn.tsx'
import { SocialButtons } from '../components/auth/SocialButtons.tsx'
import { button } from '../components/ui/button.ts'
import {
  CheckboxField,
  EmailField,
  FormAlert,
  PasswordField,
  TextField,
  useFocusFirstInvalid,
} from '../components/ui/form.tsx'
import { Spinner } from '../components/ui/states.tsx'
import { notify, notifyError } from '../components/ui/toaster.tsx'
import { refusalMessage } from '../lib/errors.ts'
import { postedFields, useNativeFormResult } from '../lib/native-form.ts'
import { optionalText, searchParams } from '../lib/search-params.ts'
import { leaveIfSignedIn, loadSignInProviders } from '../lib/session.ts'

// `redirect`: where to go once signed in (e.g. /teach/apply); it travels on to the log-in page.
const routeSearch = searchParams({ redirect: optionalText })

export const Route = createFileRoute('/signup')({
  validateSearch: routeSearch,
  beforeLoad: leaveIfSignedIn,
  loader: loadSignInProviders,
  head: () => ({ meta: [{ title: 'Create your account | SkillForge' }] }),
  component: SignupPage,
})

// The sign-up schema (zod) loads after the page is interactive, not with it: zod is a quarter of a phone's first
// download here (issue 27). The form starts fetching it once hydrated, so a submit seldom waits for it.
const loadSignupSchema = () => import('#shared/schemas/auth.ts').then((module) => module.signupInput)

type FieldErrors = Partial<Record<'firstName' | 'lastName' | 'email' | 'password' | 'acceptTerms', string>>

function SignupPage() {
  const { trpc } = Route.useRouteContext()
  const navigate = useNavigate()
  const search = Route.useSearch()
  const returnTo = search.redirect ? safeReturnPath(search.redirect) : undefined
  const loginSearch = { redirect: returnTo }
  // After a post sent before the page's JavaScript arrived, the server rendered the page with its answer.
  const posted = useNativeFormResult('/signup')
  const [errors, setErrors] = useState<FieldErrors>(posted?.fieldErrors ?? {})
  const formRef = useFocusFirstInvalid(errors)
  const [formError, setFormError] = useState<string | null>(posted?.formError ?? null)
  const signup = useMutation(trpc.auth.signup.mutationOptions())
  const doneMessage = signup.isSuccess ? signup.data.message : posted?.done
  const handedOff = usePasswordsHandedOff()

  useEffect(() => {
    void loadSignupSchema()
  }, [])

  // After success, on to the log-in page in 3 s (spec §4). Where the person was going is kept for the e-mail
  // verification page too, which they may open from the mail in another tab.
  useEffect(() => {
    if (!doneMessage) return
    if (returnTo) keepReturnAfterSignup(returnTo)
    const timer = setTimeout(() => void navigate({ to: '/login', search: { redirect: returnTo } }), SIGNUP_REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [doneMessage, navigate, returnTo])

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const fields = postedFields(event.currentTarget)
    setFormError(null)
    const signupInput = await loadSignupSchema()
    const parsed = signupInput.safeParse(signupFields(fields))
    if (!parsed.success) {
      setErrors(firstIssueByField(parsed.error.issues) as FieldErrors)
      return
    }
    setErrors({})
    try {
      const result = await signup.mutateAsync(parsed.data)
      notify('success', result.message)
    } catch (caught) {
      const message = refusalMessage(caught, AUTH_MESSAGES.signupFailed)
      setFormError(message)
      notifyError(caught, 'Signup failed', message)
    }
  }

  /** A text field the page fills again after a native post: its name, what was typed, its message. */
  const refilledField = (name: 'firstName' | 'lastName' | 'email') => ({
    name,
    error: errors[name],
    defaultValue: posted?.values[name],
  })

  if (doneMessage) {
    return (
      <AuthCard title="Check your email">
        <FormAlert kind="success" takeFocus>
          {doneMessage}
        </FormAlert>
        <p className={css({ textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })}>
          Taking you to the{' '}
          <Link to="/login" search={loginSearch} className={authLink}>
            sign-in page
          </Link>
          …
        </p>
      </AuthCard>
    )
  }

  const signIn = (
    <p className={css({ textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })}>
      Already have an account?{' '}
      <Link to="/login" search={loginSearch} className={authLink}>
        Sign in
      </Link>
    </p>
  )

  // A school's own domain: the account is made on the platform's page, and the learner comes back here signed in.
  if (handedOff) {
    return (
      <AuthCard title="Create your account">
        <HandedSignIn redirect={returnTo ?? '/'} signup />
        {signIn}
      </AuthCard>
    )
  }

  return (
    <AuthCard title="Create your account" subtitle="Join SkillForge to learn, create and sell courses">
      <form
        ref={formRef}
        method="post"
        onSubmit={onSubmit}
        noValidate
        className={css({ display: 'flex', flexDir: 'column', gap: '4' })}
      >
        <FormAlert>{formError}</FormAlert>
        <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
          <TextField label="First name" autoComplete="given-name" required {...refilledField('firstName')} />
          <TextField label="Last name" autoComplete="family-name" required {...refilledField('lastName')} />
        </div>
        <EmailField {...refilledField('email')} />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          required
          error={errors.password}
          hint="At least 8 characters, including a number and a special character."
        />
        <CheckboxField
          name="acceptTerms"
          error={errors.acceptTerms}
          defaultChecked={posted?.values.acceptTerms === 'on'}
          label={
            <>
              I agree to the{' '}
              <Link to="/terms" className={authLink}>
                terms and conditions
              </Link>
            </>
          }
        />
        <button type="submit" className={button({ size: 'lg' })} {...submitWhilePending(signup.isPending)}>
          {signup.isPending ? <Spinner label="Creating account" /> : null}
          {signup.isPending ? 'Creating account...' : 'Create Account'}
        </button>
      </form>
      <SocialButtons />
      {signIn}
    </AuthCard>
  )
}

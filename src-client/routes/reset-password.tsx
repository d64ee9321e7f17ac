import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { AUTH_MESSAGES } from '#shared/auth.ts'
import { PASSWORD_MIN_LENGTH } from '#shared/constants.ts'
import { resetPasswordInput } from '#shared/schemas/auth.ts'
import { css } from '#styled-system/css'
import { AuthCard, authLink } from '../components/auth/AuthCard.tsx'
import { button } from '../components/ui/button.ts'
import { FormAlert, PasswordField } from '../components/ui/form.tsx'
import { notify } from '../components/ui/toaster.tsx'
import { GENERIC_ERROR, refusalMessage } from '../lib/errors.ts'
import { useNativeFormResult, useTokenFromAddress } from '../lib/native-form.ts'
import { optionalText, searchParams } from '../lib/search-params.ts'

const routeSearch = searchParams({ token: optionalText })

export const Route = createFileRoute('/reset-password')({
  validateSearch: routeSearch,
  head: () => ({ meta: [{ title: 'Reset password | SkillForge' }] }),
  component: ResetPasswordPage,
})

function ResetPasswordPage() {
  const { trpc } = Route.useRouteContext()
  // The token is kept for the form and taken out of the address bar (history, copied links). One no link of ours could
  // hold (a cut-off link) is a bad link at once, not a length rule shown after a new password was typed twice.
  const given = useTokenFromAddress(Route.useSearch().token)
  const token = given && resetPasswordInput.shape.token.safeParse(given).success ? given : undefined
  const navigate = useNavigate()
  // After a post sent before the page's JavaScript arrived, the server rendered the page with its answer.
  const posted = useNativeFormResult('/reset-password')
  const [error, setError] = useState<string | null>(
    posted?.formError ?? posted?.fieldErrors.password ?? posted?.fieldErrors.confirm ?? null,
  )
  const reset = useMutation(trpc.auth.resetPassword.mutationOptions())

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const password = String(form.get('password'))
    if (password.length < PASSWORD_MIN_LENGTH) return setError(AUTH_MESSAGES.passwordLength)
    if (password !== form.get('confirm')) return setError(AUTH_MESSAGES.passwordMismatch)
    setError(null)
    try {
      const result = await reset.mutateAsync({ token: token ?? '', password })
      notify('success', 'Password updated', result.message)
      await navigate({ to: '/login' })
    } catch (caught) {
      setError(refusalMessage(caught, GENERIC_ERROR))
    }
  }

  if (posted?.done) {
    return (
      <AuthCard title="Reset your password">
        <FormAlert kind="success" takeFocus>
          {posted.done}
        </FormAlert>
        <Link to="/login" className={button({ size: 'lg' })}>
          Continue to sign-in
        </Link>
      </AuthCard>
    )
  }

  if (!token) {
    return (
      <AuthCard title="Reset your password">
        <FormAlert>{AUTH_MESSAGES.badResetLink}</FormAlert>
        <Link to="/forgot-password" className={authLink}>
          Request a new link
        </Link>
      </AuthCard>
    )
  }

  return (
    <AuthCard title="Reset your password" subtitle="Choose a new password for your account.">
      <form method="post" onSubmit={onSubmit} className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
        <FormAlert>{error}</FormAlert>
        {/* Posted with the form when it is sent before the page's JavaScript has arrived. */}
        <input type="hidden" name="token" value={token} />
        <PasswordField label="New password" name="password" autoComplete="new-password" required />
        <PasswordField label="Confirm new password" name="confirm" autoComplete="new-password" required />
        <button type="submit" className={button({ size: 'lg' })} {...submitWhilePending(reset.isPending)}>
          {reset.isPending ? 'Saving...' : 'Reset Password'}
        </button>
      </form>
      <Link to="/forgot-password" className={authLink}>
        Request a new link
      </Link>
    </AuthCard>
  )
}

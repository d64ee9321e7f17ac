import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { css } from '#styled-system/css'
import { AuthCard, authLink } from '../components/auth/AuthCard.tsx'
import { button } from '../components/ui/button.ts'
import { EmailField, FormAlert } from '../components/ui/form.tsx'
import { notifyError } from '../components/ui/toaster.tsx'
import { errorMessage, GENERIC_ERROR, refusalMessage } from '../lib/errors.ts'
import { useNativeFormResult } from '../lib/native-form.ts'

export const Route = createFileRoute('/forgot-password')({
  head: () => ({ meta: [{ title: 'Forgot password | SkillForge' }] }),
  component: ForgotPasswordPage,
})

function ForgotPasswordPage() {
  const { trpc } = Route.useRouteContext()
  // After a post sent before the page's JavaScript arrived, the server rendered the page with its answer.
  const posted = useNativeFormResult('/forgot-password')
  const request = useMutation(
    trpc.auth.requestPasswordReset.mutationOptions({
      onError: (error) => notifyError(error, 'Request failed', errorMessage(error)),
    }),
  )

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    request.mutate({ email: String(new FormData(event.currentTarget).get('email')) })
  }

  return (
    <AuthCard title="Forgot your password?" subtitle="Enter your email and we'll send you a link to reset it.">
      {request.isSuccess || posted?.done ? (
        <FormAlert kind="success" takeFocus>
          {request.data?.message ?? posted?.done}
        </FormAlert>
      ) : (
        <form method="post" onSubmit={onSubmit} className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
          {request.isError ? (
            <FormAlert>{refusalMessage(request.error, GENERIC_ERROR)}</FormAlert>
          ) : posted?.formError ? (
            <FormAlert>{posted.formError}</FormAlert>
          ) : null}
          <EmailField defaultValue={posted?.values.email} error={posted?.fieldErrors.email} />
          <button type="submit" className={button({ size: 'lg' })} {...submitWhilePending(request.isPending)}>
            {request.isPending ? 'Sending...' : 'Send Reset Link'}
          </button>
        </form>
      )}
      <p className={css({ textAlign: 'center', fontSize: 'sm' })}>
        <Link to="/login" className={authLink}>
          Back to sign-in
        </Link>
      </p>
    </AuthCard>
  )
}

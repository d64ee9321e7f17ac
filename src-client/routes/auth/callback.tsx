import { useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'
import { safeReturnPath } from '../../../src-shared/auth.ts'
import { AuthCard } from '../../components/auth/AuthCard.tsx'
import { button } from '../../components/ui/button.ts'
import { FormAlert } from '../../components/ui/form.tsx'
import { LoadingState } from '../../components/ui/states.tsx'
import { notify } from '../../components/ui/toaster.tsx'
import { optionalText, z } from '../../lib/search-params.ts'

// Where Google and Facebook sign-in come back to (the server already set the session, or sent an error).
export const Route = createFileRoute('/auth/callback')({
  validateSearch: z.object({ redirect: optionalText, error: optionalText }),
  head: () => ({ meta: [{ title: 'Signing in | SkillForge' }] }),
  component: AuthCallbackPage,
})

function AuthCallbackPage() {
  const { error, redirect } = Route.useSearch()
  const queryClient = useQueryClient()
  const navigate = useNavigate()

  useEffect(() => {
    if (error) {
      // "Google login failed: reason" → title and description.
      const [title, ...reason] = error.split(': ')
      notify('error', title ?? error, reason.join(': ') || undefined)
      return
    }
    void queryClient.invalidateQueries().then(() => {
      notify('success', 'Login successful')
      return navigate({ href: safeReturnPath(redirect), replace: true })
    })
  }, [error, redirect, queryClient, navigate])

  if (error) {
    return (
      <AuthCard title="Sign-in failed">
        <FormAlert>{error}</FormAlert>
        <Link to="/login" className={button()}>
          Back to sign-in
        </Link>
      </AuthCard>
    )
  }
  return (
    <AuthCard title="Signing you in">
      <LoadingState label="Signing you in…" />
    </AuthCard>
  )
}

// The end of a log-in, the same after the password (login.tsx), a passkey, or the second factor (two-factor.tsx): the
// session is set and the visitor goes on, or a refusal is told in the form and a toast.
import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { errorMessage, isClientError, isServiceUnavailable } from '#client/lib/errors.ts'
import { type SessionUser, setSessionUser } from '#client/lib/session.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { AUTH_MESSAGES } from '#shared/auth.ts'

type SignedInUser = (SessionUser & { deletionScheduledFor?: Date | string | null }) | null

/**
 * Sets the session of the user just signed in, then goes back to `returnTo`; an account waiting out its deletion's
 * cool-off goes to the security page instead, which offers to cancel it.
 */
export function useSignedIn(returnTo: string) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return async (user: SignedInUser) => {
    await setSessionUser(queryClient, trpc, user)
    if (user?.deletionScheduledFor) {
      notify('info', 'Your account is scheduled for deletion', 'You can cancel the deletion on this page.')
      return void (await navigate({ to: '/account/security' }))
    }
    notify('success', 'Login successful')
    await navigate({ href: returnTo })
  }
}

/** A failed log-in step: the toast, and the message for the form's alert (the server's words for a refusal). */
export function loginFailure(caught: unknown): string {
  if (isClientError(caught)) {
    const message = caught.message || AUTH_MESSAGES.loginFailed
    notify('error', 'Login failed', message)
    return message
  }
  if (isServiceUnavailable(caught)) {
    notifyError(caught)
    return errorMessage(caught)
  }
  notify('error', 'Login error', AUTH_MESSAGES.loginError)
  return AUTH_MESSAGES.loginError
}

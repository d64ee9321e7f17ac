// The page of the link mailed to a new address (decision 0157): opening it moves the account there, in any browser,
// signed in or not (the link alone proves the new mailbox; the ask was proven with the password).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link, useHydrated } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { tokenInput } from '#shared/schemas/auth.ts'
import { AuthCard } from '../components/auth/AuthCard.tsx'
import { PostLinkToken } from '../components/auth/PostLinkToken.tsx'
import { button } from '../components/ui/button.ts'
import { FormAlert } from '../components/ui/form.tsx'
import { LoadingState } from '../components/ui/states.tsx'
import { GENERIC_ERROR, refusalMessage } from '../lib/errors.ts'
import { useNativeFormResult, useTokenFromAddress } from '../lib/native-form.ts'
import { optionalText, searchParams } from '../lib/search-params.ts'
import { sessionQuery, useSession } from '../lib/session.ts'

const routeSearch = searchParams({ token: optionalText })

const BAD_CHANGE_LINK =
  'This link is not complete. Open the link from the e-mail again, or ask for a new one on your account page.'

export const Route = createFileRoute('/change-email')({
  validateSearch: routeSearch,
  head: () => ({ meta: [{ title: 'Confirm your new e-mail address | SkillForge' }] }),
  component: ChangeEmailPage,
})

function ChangeEmailPage() {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const { user } = useSession()
  // Kept for the check and taken out of the address bar (history, a copied address).
  const given = useTokenFromAddress(Route.useSearch().token)
  const token = given && tokenInput.safeParse({ token: given }).success ? given : undefined
  const confirm = useMutation(
    trpc.profile.confirmEmailChange.mutationOptions({
      // Signed in here, the header and My Account show the new address at once.
      onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQuery(trpc).queryKey }),
    }),
  )
  const started = useRef(false)
  const hydrated = useHydrated()
  const posted = useNativeFormResult('/change-email')

  // Links are single-use: send it once, even when React runs effects twice in development.
  useEffect(() => {
    if (!token || posted || started.current) return
    started.current = true
    confirm.mutate({ token })
  }, [token, posted, confirm])

  const done = confirm.data?.message ?? posted?.done
  return (
    <AuthCard title="Confirm your new e-mail address">
      {done ? (
        <FormAlert kind="success" takeFocus>
          {done}
        </FormAlert>
      ) : posted ? (
        <FormAlert>{posted.formError ?? GENERIC_ERROR}</FormAlert>
      ) : !token ? (
        <FormAlert>{BAD_CHANGE_LINK}</FormAlert>
      ) : confirm.isError ? (
        <FormAlert>{refusalMessage(confirm.error, GENERIC_ERROR)}</FormAlert>
      ) : hydrated ? (
        <LoadingState label="Confirming your new address…" />
      ) : (
        <PostLinkToken action="/change-email" token={token} label="Use this address" />
      )}
      {user ? (
        <Link to="/account" className={button({ variant: done ? 'primary' : 'outline' })}>
          Go to My Account
        </Link>
      ) : (
        <Link to="/login" className={button({ variant: done ? 'primary' : 'outline' })}>
          Continue to sign-in
        </Link>
      )}
    </AuthCard>
  )
}

import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link, useHydrated } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { AUTH_MESSAGES } from '#shared/auth.ts'
import { RESEND_VERIFICATION_INTENT } from '#shared/native-form.ts'
import { tokenInput } from '#shared/schemas/auth.ts'
import { AuthCard } from '../components/auth/AuthCard.tsx'
import { PostLinkToken } from '../components/auth/PostLinkToken.tsx'
import { ResendVerification } from '../components/auth/ResendVerification.tsx'
import { asksForSignupPassword, SignupPasswordForm } from '../components/auth/SignupPasswordForm.tsx'
import { button } from '../components/ui/button.ts'
import { FormAlert } from '../components/ui/form.tsx'
import { LoadingState } from '../components/ui/states.tsx'
import { GENERIC_ERROR, isClientError, refusalMessage } from '../lib/errors.ts'
import { useNativeFormResult, useTokenFromAddress } from '../lib/native-form.ts'
import { keptReturnAfterSignup } from '../lib/return-after-signup.ts'
import { optionalText, searchParams } from '../lib/search-params.ts'

const routeSearch = searchParams({ token: optionalText })

export const Route = createFileRoute('/verify-email')({
  validateSearch: routeSearch,
  head: () => ({ meta: [{ title: 'Verify your email | SkillForge' }] }),
  component: VerifyEmailPage,
})

function VerifyEmailPage() {
  const { trpc } = Route.useRouteContext()
  // Kept for the check, and taken out of the address bar (history, a copied address). A token no link of ours could
  // hold (a cut-off link) is a bad link, not worth asking the server about (which would answer with its length rule).
  const given = useTokenFromAddress(Route.useSearch().token)
  const token = given && tokenInput.safeParse({ token: given }).success ? given : undefined
  const verify = useMutation(trpc.auth.verifyEmail.mutationOptions())
  const started = useRef(false)
  // Until the page's script runs (or without JavaScript) the link is checked by a button posting its token; the
  // server renders this page again with the answer.
  const hydrated = useHydrated()
  const posted = useNativeFormResult('/verify-email')
  // Where the person was going when they signed up (a gift to claim): the log-in sends them on there. Read once the
  // page runs in the browser, where it is kept.
  const [returnTo, setReturnTo] = useState<string | undefined>()
  useEffect(() => setReturnTo(keptReturnAfterSignup()), [])

  // Tokens are single-use: send it once, even when React runs effects twice in development.
  useEffect(() => {
    if (!token || posted || started.current) return
    started.current = true
    verify.mutate({ token })
  }, [token, posted, verify])

  const resendPosted = posted?.values.intent === RESEND_VERIFICATION_INTENT
  const verified = verify.isSuccess || Boolean(posted?.done)
  // Opened away from the browser that signed up, the server asks for the sign-up's password (decision 0134): on the
  // link's first check, or after a typed password that was not it. Kept while the typed one is checked. Before the
  // script ran, the post's answer carried the token back.
  const [asked, setAsked] = useState<{ token: string; message: string }>()
  useEffect(() => {
    if (verify.error && verify.variables && asksForSignupPassword(verify.error.message)) {
      setAsked({ token: verify.variables.token, message: verify.error.message })
    }
  }, [verify.error, verify.variables])
  const askedPassword = verify.isSuccess
    ? null
    : (asked ??
      (posted?.values.token && asksForSignupPassword(posted.formError)
        ? { token: posted.values.token, message: posted.formError ?? '' }
        : null))
  return (
    <AuthCard title="Verify your email">
      {askedPassword ? (
        <SignupPasswordForm
          token={askedPassword.token}
          message={askedPassword.message}
          pending={verify.isPending}
          onConfirm={hydrated ? (password) => verify.mutate({ token: askedPassword.token, password }) : undefined}
        />
      ) : verify.isSuccess ? (
        <>
          <FormAlert kind="success">{verify.data.message}</FormAlert>
          {verify.data.giftWaiting ? (
            <p data-testid="gift-waiting">A gift sent to this address is waiting for you: log in to claim it.</p>
          ) : null}
        </>
      ) : posted ? (
        posted.done ? (
          <FormAlert kind="success">{posted.done}</FormAlert>
        ) : (
          <>
            {/* A refused resend says its own reason (a bad address under its field, a limit above); else the link was bad. */}
            <FormAlert>{posted.formError ?? (resendPosted ? null : AUTH_MESSAGES.badVerifyLink)}</FormAlert>
            <ResendVerification posted={resendPosted ? posted : undefined} />
          </>
        )
      ) : !token ? (
        <>
          <FormAlert>{AUTH_MESSAGES.badVerifyLink}</FormAlert>
          <ResendVerification />
        </>
      ) : verify.isError ? (
        <>
          <FormAlert>{refusalMessage(verify.error, GENERIC_ERROR)}</FormAlert>
          {/* An expired or used link is no dead end: a new one is a click away. */}
          {isClientError(verify.error) ? <ResendVerification /> : null}
        </>
      ) : hydrated ? (
        <LoadingState label="Verifying your email…" />
      ) : (
        <PostLinkToken action="/verify-email" token={token} label="Verify my email" />
      )}
      <Link
        to="/login"
        // A gift waiting for the verified address: the log-in leads to it, whichever browser opened the mail.
        search={{ redirect: verify.data?.giftWaiting ? '/gifts/claim' : returnTo }}
        className={button({ variant: verified ? 'primary' : 'outline' })}
      >
        Continue to sign-in
      </Link>
    </AuthCard>
  )
}

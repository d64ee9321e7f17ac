import { useMutation, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { whilePending } from '#client/lib/while-pending.ts'
import { css } from '#styled-system/css'
import { AuthCard, authLink } from '../components/auth/AuthCard.tsx'
import {
  AlreadyOwnedNote,
  ClaimOutcome,
  claimButtonLabel,
  GiftSummary,
  useAfterClaim,
  WaitingGifts,
} from '../components/gifts/GiftClaim.tsx'
import { button } from '../components/ui/button.ts'
import { FormAlert } from '../components/ui/form.tsx'
import { LoadingState } from '../components/ui/states.tsx'
import { GENERIC_ERROR, refusalMessage } from '../lib/errors.ts'
import { useTokenFromAddress } from '../lib/native-form.ts'
import { optionalText, searchParams } from '../lib/search-params.ts'
import { useSession } from '../lib/session.ts'

const routeSearch = searchParams({ token: optionalText })

/** Kept in this tab while the recipient signs up or logs in, so the token never rides in a ?redirect= address. */
const KEPT_TOKEN = 'gift-claim-token'
/** No token here: the page was opened without the mailed link, or in another tab than the one the link opened. */
const NO_LINK = 'Open the link in your gift e-mail to claim the gift: this page cannot see it from here.'
/** Said under NO_LINK to a visitor: a gift mailed to their address also waits in their account (decision 0146). */
const OR_LOG_IN = 'Or log in with the address the gift was sent to: it waits for you there.'

export const Route = createFileRoute('/gifts/claim')({
  validateSearch: routeSearch,
  head: () => ({ meta: [{ title: 'Claim your gift | SkillForge' }] }),
  component: ClaimGiftPage,
})

function useKeptToken(fromAddress: string | undefined): { token: string | undefined; ready: boolean } {
  const [state, setState] = useState<{ token: string | undefined; ready: boolean }>({
    token: fromAddress,
    ready: false,
  })
  useEffect(() => {
    if (fromAddress) {
      window.sessionStorage.setItem(KEPT_TOKEN, fromAddress)
      setState({ token: fromAddress, ready: true })
    } else {
      setState({ token: window.sessionStorage.getItem(KEPT_TOKEN) ?? undefined, ready: true })
    }
  }, [fromAddress])
  return state
}

function ClaimGiftPage() {
  const { trpc } = Route.useRouteContext()
  // Taken out of the address bar (history, a copied address); the claim sends it in a POST body.
  const fromAddress = useTokenFromAddress(Route.useSearch().token)
  const { token, ready } = useKeptToken(fromAddress)
  const { user, isLoading } = useSession()
  const afterClaim = useAfterClaim()
  const claim = useMutation(
    trpc.gifts.claim.mutationOptions({
      onSettled: () => window.sessionStorage.removeItem(KEPT_TOKEN),
      // What the gift gave (Premium, a course) shows at once on the pages it links to.
      onSuccess: afterClaim,
    }),
  )
  // Without the link, a signed-in recipient still finds the gifts mailed to their address (decision 0146).
  const waiting = useQuery({ ...trpc.gifts.waiting.queryOptions(), enabled: ready && !token && Boolean(user) })

  // What the link gives, read before the claim (a POST: the token stays out of addresses, decision 0129).
  const preview = useQuery({
    ...trpc.gifts.preview.queryOptions({ token: token ?? '' }),
    enabled: Boolean(token) && !claim.isSuccess,
    retry: false,
  })

  let body: React.ReactNode
  if (
    !ready ||
    isLoading ||
    (token && preview.isPending && !claim.isSuccess) ||
    (!token && user && waiting.isPending)
  ) {
    body = <LoadingState label="Loading your gift…" />
  } else if (claim.isSuccess) {
    body = <ClaimOutcome result={claim.data} from={preview.data?.from ?? 'The sender'} />
  } else if (!token && user && waiting.data?.length) {
    body = <WaitingGifts email={user.email} />
  } else if (!token) {
    body = (
      <>
        <FormAlert>{NO_LINK}</FormAlert>
        {user ? null : (
          <p className={css({ textAlign: 'center', fontSize: 'sm' })}>
            {OR_LOG_IN}{' '}
            <Link to="/login" search={{ redirect: '/gifts/claim' }} className={authLink}>
              Log in
            </Link>
          </p>
        )}
      </>
    )
  } else if (preview.isError) {
    body = <FormAlert>{refusalMessage(preview.error, GENERIC_ERROR)}</FormAlert>
  } else if (preview.data?.refusal) {
    body = <FormAlert>{preview.data.refusal}</FormAlert>
  } else if (!user) {
    body = (
      <>
        {preview.data ? <GiftSummary gift={preview.data} /> : null}
        <p>Sign up or log in to claim it; you will come back here afterwards.</p>
        <Link to="/signup" search={{ redirect: '/gifts/claim' }} className={button({ size: 'lg' })}>
          Sign up to claim
        </Link>
        <p className={css({ textAlign: 'center', fontSize: 'sm' })}>
          Already have an account?{' '}
          <Link to="/login" search={{ redirect: '/gifts/claim' }} className={authLink}>
            Log in
          </Link>
        </p>
      </>
    )
  } else {
    const gift = preview.data
    body = (
      <>
        {claim.isError ? <FormAlert>{refusalMessage(claim.error, GENERIC_ERROR)}</FormAlert> : null}
        {gift ? <GiftSummary gift={gift} /> : null}
        {gift?.owned ? (
          <AlreadyOwnedNote gift={gift} email={user.email} />
        ) : (
          <p>
            Claim the gift for your account <strong>{user.email}</strong>.
          </p>
        )}
        <button
          type="button"
          className={button({ size: 'lg', variant: gift?.owned ? 'outline' : 'primary' })}
          {...whilePending(claim.isPending || claim.isError, 'onClick', () => claim.mutate({ token }))}
        >
          {gift ? claimButtonLabel(gift, claim.isPending) : 'Claim gift'}
        </button>
      </>
    )
  }
  return (
    <AuthCard title="Claim your gift">
      <div className={css({ display: 'grid', gap: '4' })}>{body}</div>
    </AuthCard>
  )
}

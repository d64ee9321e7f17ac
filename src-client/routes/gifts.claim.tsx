import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'
import { AuthCard, authLink } from '../components/auth/AuthCard.tsx'
import { button } from '../components/ui/button.ts'
import { FormAlert } from '../components/ui/form.tsx'
import { LoadingState } from '../components/ui/states.tsx'
import { GENERIC_ERROR, refusalMessage } from '../lib/errors.ts'
import { useTokenFromAddress } from '../lib/native-form.ts'
import { optionalText, searchParams } from '../lib/search-params.ts'
import { useSession } from '../lib/session.ts'
import type { RouterOutputs } from '../lib/types.ts'

const routeSearch = searchParams({ token: optionalText })

/** Kept in this tab while the recipient signs up or logs in, so the token never rides in a ?redirect= address. */
const KEPT_TOKEN = 'gift-claim-token'
/** No token here: the page was opened without the mailed link, or in another tab than the one the link opened. */
const NO_LINK = 'Open the link in your gift e-mail to claim the gift: this page cannot see it from here.'

type GiftPreview = RouterOutputs['gifts']['preview']

/** Who sent what, with their message: the e-mail's words again, so the recipient knows what they are claiming. */
function GiftSummary({ gift }: { gift: GiftPreview }) {
  const what =
    gift.kind === 'course'
      ? `the course “${gift.title}”`
      : `a membership: ${gift.title}${gift.planMonths ? ` for ${gift.planMonths} ${gift.planMonths === 1 ? 'month' : 'months'}` : ''}`
  return (
    <div data-testid="gift-summary" className={css({ display: 'grid', gap: '2' })}>
      <p>
        <strong>{gift.from}</strong> sent you {what}.
      </p>
      {gift.message ? (
        <blockquote className={css({ borderLeftWidth: '4px', borderColor: 'line', pl: '3', color: 'fg.muted' })}>
          {gift.message}
        </blockquote>
      ) : null}
    </div>
  )
}

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
  const queryClient = useQueryClient()
  const claim = useMutation(
    trpc.gifts.claim.mutationOptions({
      onSettled: () => window.sessionStorage.removeItem(KEPT_TOKEN),
      // What the gift gave (Premium, a course) shows at once on the pages it links to.
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.purchases.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.membership.pathKey() }),
        ]),
    }),
  )

  // What the link gives, read before the claim (a POST: the token stays out of addresses, decision 0129).
  const preview = useQuery({
    ...trpc.gifts.preview.queryOptions({ token: token ?? '' }),
    enabled: Boolean(token) && !claim.isSuccess,
    retry: false,
  })

  let body: React.ReactNode
  if (!ready || isLoading || (token && preview.isPending && !claim.isSuccess)) {
    body = <LoadingState label="Loading your gift…" />
  } else if (claim.isSuccess && 'planId' in claim.data) {
    const until = formatDate(claim.data.endsAt)
    // A term that follows the Premium the recipient already holds starts later: say when.
    const later = new Date(claim.data.startsAt).getTime() > Date.now()
    body = (
      <>
        {/* The message takes the focus of the Claim button it replaced, so it is read out first. */}
        <FormAlert kind="success" takeFocus>
          {later
            ? `Claimed: “${claim.data.title}” starts on ${formatDate(claim.data.startsAt)}, when your current Premium ends, and runs until ${until}.`
            : `Premium is active: “${claim.data.title}”, until ${until}. Enjoy!`}
        </FormAlert>
        <Link to="/account/membership" className={button({ size: 'lg' })}>
          See your membership
        </Link>
      </>
    )
  } else if (claim.isSuccess && 'courseId' in claim.data) {
    body = (
      <>
        <FormAlert kind="success" takeFocus>{`“${claim.data.title}” is now yours. Enjoy the course!`}</FormAlert>
        <Link to="/learn/$courseId" params={{ courseId: claim.data.courseId }} className={button({ size: 'lg' })}>
          Start learning
        </Link>
      </>
    )
  } else if (!token) {
    body = <FormAlert>{NO_LINK}</FormAlert>
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
    body = (
      <>
        {claim.isError ? <FormAlert>{refusalMessage(claim.error, GENERIC_ERROR)}</FormAlert> : null}
        {preview.data ? <GiftSummary gift={preview.data} /> : null}
        <p>
          Claim the gift for your account <strong>{user.email}</strong>.
        </p>
        <button
          type="button"
          className={button({ size: 'lg' })}
          {...whilePending(claim.isPending || claim.isError, 'onClick', () => claim.mutate({ token }))}
        >
          {claim.isPending ? 'Claiming…' : 'Claim gift'}
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

// A gift as its recipient sees it, and what claiming it did: shared by the claim page (opened from the e-mail's link)
// and "a gift waiting for you" (the gifts mailed to the signed-in account's verified address, decision 0146).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { GENERIC_ERROR, refusalMessage } from '#client/lib/errors.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { giftedMembershipWords } from '#shared/membership.ts'
import { css } from '#styled-system/css'
import { SectionCard } from '../account/SectionCard.tsx'
import { button } from '../ui/button.ts'
import { FormAlert } from '../ui/form.tsx'

type GiftShown = Pick<
  RouterOutputs['gifts']['preview'],
  'kind' | 'title' | 'planName' | 'planMonths' | 'from' | 'message' | 'owned'
>
type ClaimResult = RouterOutputs['gifts']['claim']

/** Who sent what, with their message: the e-mail's words again, so the recipient knows what they are claiming. */
export function GiftSummary({ gift }: { gift: GiftShown }) {
  const what =
    gift.kind === 'course' ? `the course “${gift.title}”` : giftedMembershipWords(gift.planName, gift.planMonths)
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

/**
 * The signed-in person already holds the gifted course (decision 0146): claiming would add nothing, so the gift stays
 * unclaimed for its sender to give elsewhere. Said before the button, which only lets the sender know.
 */
export function AlreadyOwnedNote({ gift, email }: { gift: GiftShown; email: string }) {
  return (
    <p data-testid="gift-owned" className={css({ fontSize: 'sm' })}>
      You already have “{gift.title}” in your account <strong>{email}</strong>, so this gift would add nothing. It stays
      unclaimed: let {gift.from} know, and they can give it to someone else or ask for a refund.
    </p>
  )
}

/** The claim's button: "Claim gift", or for a course the person already holds, "Let <sender> know". */
export function claimButtonLabel(gift: GiftShown, pending: boolean): string {
  if (gift.owned) return pending ? 'Letting them know…' : `Let ${gift.from} know`
  return pending ? 'Claiming…' : 'Claim gift'
}

/** What the claim did, in words, with where to go next. The message takes the focus of the button it replaced. */
export function ClaimOutcome({ result, from }: { result: ClaimResult; from: string }) {
  if ('planId' in result) {
    const until = formatDate(result.endsAt)
    const membership = result.planName ? `${result.planName} membership` : 'membership'
    // A term that follows the Premium the recipient already holds starts later: say when.
    const later = new Date(result.startsAt).getTime() > Date.now()
    return (
      <>
        <FormAlert kind="success" takeFocus>
          {later
            ? `Claimed: your ${membership} starts on ${formatDate(result.startsAt)}, when your current Premium ends, and runs until ${until}.`
            : `Your ${membership} is active until ${until}. Enjoy Premium!`}
        </FormAlert>
        <Link to="/account/membership" className={button({ size: 'lg' })}>
          See your membership
        </Link>
      </>
    )
  }
  return (
    <>
      <FormAlert kind="success" takeFocus>
        {'alreadyOwned' in result
          ? `We have told ${from} that you already have “${result.title}”. The gift stays theirs to give to someone else.`
          : `“${result.title}” is now yours. Enjoy the course!`}
      </FormAlert>
      <Link to="/learn/$courseId" params={{ courseId: result.courseId }} className={button({ size: 'lg' })}>
        {'alreadyOwned' in result ? 'Go to the course' : 'Start learning'}
      </Link>
    </>
  )
}

/**
 * After a claim, what it gave shows at once on the pages it links to. "Waiting for you" is only marked stale, not asked
 * again now: its claimed row stays on screen with what the claim did (and its link onwards); the next page asks.
 */
export function useAfterClaim() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.purchases.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.learning.myCourses.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.membership.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.gifts.waiting.queryKey(), refetchType: 'none' }),
    ])
}

type WaitingGift = RouterOutputs['gifts']['waiting'][number]

/**
 * The gifts mailed to the signed-in account's verified address and not claimed: claimable here without the e-mail's
 * link, which a recipient loses when they sign up and verify their address in another tab (decision 0146). Nothing
 * while there is none; `inCard`: under its own heading on /account.
 */
export function WaitingGifts({ email, inCard = false }: { email: string; inCard?: boolean }) {
  const trpc = useTRPC()
  const waiting = useQuery(trpc.gifts.waiting.queryOptions())
  if (!waiting.data?.length) return null
  const list = (
    <ul className={css({ display: 'grid', gap: '4' })} data-testid="waiting-gifts">
      {waiting.data.map((gift) => (
        <WaitingGiftRow key={gift.id} gift={gift} email={email} />
      ))}
    </ul>
  )
  if (!inCard) return list
  return (
    <SectionCard
      title={waiting.data.length === 1 ? 'You have a gift waiting' : 'You have gifts waiting'}
      description="Sent to you and not claimed yet."
    >
      {list}
    </SectionCard>
  )
}

function WaitingGiftRow({ gift, email }: { gift: WaitingGift; email: string }) {
  const trpc = useTRPC()
  const afterClaim = useAfterClaim()
  const claim = useMutation(trpc.gifts.claimWaiting.mutationOptions({ onSuccess: afterClaim }))
  return (
    <li
      data-testid="waiting-gift"
      className={css({
        borderWidth: '1px',
        borderColor: 'line',
        borderRadius: 'control',
        p: '4',
        display: 'grid',
        gap: '3',
      })}
    >
      {claim.isSuccess ? (
        <ClaimOutcome result={claim.data} from={gift.from} />
      ) : (
        <>
          <GiftSummary gift={gift} />
          {claim.isError ? <FormAlert>{refusalMessage(claim.error, GENERIC_ERROR)}</FormAlert> : null}
          {gift.owned ? <AlreadyOwnedNote gift={gift} email={email} /> : null}
          <button
            type="button"
            className={button({ variant: gift.owned ? 'outline' : 'primary' })}
            {...whilePending(claim.isPending || claim.isError, 'onClick', () => claim.mutate({ giftId: gift.id }))}
          >
            {claimButtonLabel(gift, claim.isPending)}
          </button>
        </>
      )}
    </li>
  )
}

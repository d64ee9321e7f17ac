import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { PAYMENT_MESSAGES } from '#shared/cart.ts'
import { formatDate } from '#shared/dates.ts'
import { trialChargeText } from '#shared/membership.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { useRefreshPurchases } from '../components/cart/hooks.ts'
import { button } from '../components/ui/button.ts'
import { Container } from '../components/ui/layout.tsx'
import { LoadingState } from '../components/ui/states.tsx'
import { errorMessage } from '../lib/errors.ts'
import { optionalText, searchParams } from '../lib/search-params.ts'
import { useTRPC } from '../lib/use-trpc.ts'

const routeSearch = searchParams({ session_id: optionalText })

export const Route = createFileRoute('/payment-success')({
  validateSearch: routeSearch,
  head: () => ({ meta: [{ title: 'Payment | SkillForge' }] }),
  component: PaymentSuccessPage,
})

const panel = css({ textAlign: 'center', py: '16', maxW: 'xl', mx: 'auto' })
const actions = css({ display: 'flex', gap: '3', justifyContent: 'center', flexWrap: 'wrap', mt: '6' })

function PaymentSuccessPage() {
  const { session_id: sessionId } = Route.useSearch()
  const trpc = useTRPC()
  const refresh = useRefreshPurchases()
  const confirm = useMutation(trpc.payments.confirm.mutationOptions({ onSettled: () => refresh() }))
  const asked = useRef(false)

  useEffect(() => {
    // The server confirms the session with Stripe; the URL alone proves nothing.
    if (!sessionId || asked.current) return
    asked.current = true
    confirm.mutate({ sessionId })
  }, [sessionId, confirm])

  let content: React.ReactNode
  if (!sessionId) content = <PaymentError message={PAYMENT_MESSAGES.noSession} />
  else if (confirm.isError)
    content = <PaymentError message={errorMessage(confirm.error, PAYMENT_MESSAGES.processingError)} />
  else if (!confirm.data) content = <LoadingState label="Confirming your payment…" />
  else if (confirm.data.status === 'paid') {
    content = (
      <div className={panel}>
        <h1 className={css({ fontSize: '3xl', fontWeight: 'extrabold', color: 'success' })}>Payment Successful!</h1>
        {confirm.data.trialText ? (
          // A trial's plan took no money yet: say when its first charge is, and what the rest of the order took.
          <p className={css({ mt: '3', color: 'fg.muted' })} data-testid="trial-started">
            Thank you! Order {confirm.data.reference}: {confirm.data.trialText}.{' '}
            {trialChargeText(confirm.data.totalMinor, confirm.data.currency)}.
          </p>
        ) : confirm.data.gift ? (
          <p className={css({ mt: '3', color: 'fg.muted' })} data-testid="gift-paid">
            Thank you! Order {confirm.data.reference} ({formatMoney(confirm.data.totalMinor, confirm.data.currency)}) is
            paid. {giftDeliveryText(confirm.data.gift)}
          </p>
        ) : (
          <p className={css({ mt: '3', color: 'fg.muted' })}>
            Thank you for your purchase. Order {confirm.data.reference} (
            {formatMoney(confirm.data.totalMinor, confirm.data.currency)}) is paid and your purchases are ready.
          </p>
        )}
        <div className={actions}>
          {confirm.data.gift ? (
            <Link to="/account" hash="my-gifts" className={button()}>
              See Your Gifts
            </Link>
          ) : (
            <Link to="/account" className={button()}>
              Go to My Account
            </Link>
          )}
          <Link to="/courses" className={button({ variant: 'outline' })}>
            Browse More Courses
          </Link>
          <Link to="/cart" className={button({ variant: 'outline' })}>
            View Cart
          </Link>
        </div>
      </div>
    )
  } else if (confirm.data.status === 'pending') {
    content = (
      <div className={panel}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Payment Processing</h1>
        <p className={css({ mt: '3', color: 'fg.muted' })}>
          Your payment for order {confirm.data.reference} is still being processed. We will e-mail you once it is
          confirmed.
        </p>
        <div className={actions}>
          <button type="button" className={button()} onClick={() => sessionId && confirm.mutate({ sessionId })}>
            Check Again
          </button>
        </div>
      </div>
    )
  } else content = <PaymentError message={PAYMENT_MESSAGES.processingError} />

  return (
    <main>
      <Container>{content}</Container>
    </main>
  )
}

/** Where a paid gift goes and when: the buyer holds nothing from it, the recipient claims it from an e-mail. */
function giftDeliveryText(gift: { recipientEmail: string; sendAt: string }): string {
  const when = new Date(gift.sendAt).getTime() > Date.now() ? `on ${formatDate(gift.sendAt)}` : 'now'
  return `We e-mail ${gift.recipientEmail} a link to claim your gift ${when}.`
}

function PaymentError({ message }: { message: string }) {
  return (
    <div role="alert" className={panel}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', color: 'danger' })}>Payment Error</h1>
      <p className={css({ mt: '3', color: 'fg.muted' })}>{message}</p>
      <div className={actions}>
        <Link to="/cart" className={button()}>
          Back to Cart
        </Link>
        <Link to="/courses" className={button({ variant: 'outline' })}>
          Browse Courses
        </Link>
      </div>
    </div>
  )
}

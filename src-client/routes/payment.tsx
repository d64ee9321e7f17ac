import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, redirect, useLocation, useNavigate } from '@tanstack/react-router'
import { useRef, useState } from 'react'
import { CART_MESSAGES, mixesPlanAndService, PAYMENT_MESSAGES } from '#shared/cart.ts'
import { CURRENCIES, formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { BundleOverlap } from '../components/bundles/BundleOverlap.tsx'
import { perInterval } from '../components/cart/CartItemRow.tsx'
import { CartSummary } from '../components/cart/CartSummary.tsx'
import { useRefreshPurchases } from '../components/cart/hooks.ts'
import { holdsOtherSellers, OtherSellersNote } from '../components/cart/OtherSellersNote.tsx'
import { PlanWithServiceNote } from '../components/cart/PlanWithServiceNote.tsx'
import { BankTransferDialog } from '../components/checkout/BankTransferDialog.tsx'
import {
  BillingDetailsFields,
  type BillingDetailsValue,
  EMPTY_BILLING,
} from '../components/checkout/BillingDetailsFields.tsx'
import { PaymentMethods } from '../components/checkout/PaymentMethods.tsx'
import { PaypalHostedButton } from '../components/checkout/PaypalHostedButtons.tsx'
import { PayLabel, TrialNote } from '../components/checkout/TrialNote.tsx'
import { usePaymentChoice } from '../components/checkout/use-payment-choice.ts'
import { PageIntro } from '../components/layout/PageIntro.tsx'
import { button } from '../components/ui/button.ts'
import { CheckboxField, Options, SelectField } from '../components/ui/form.tsx'
import { Container } from '../components/ui/layout.tsx'
import { routeError } from '../components/ui/RouteError.tsx'
import { EmptyState, LoadingState } from '../components/ui/states.tsx'
import { notify, notifyError } from '../components/ui/toaster.tsx'
import { errorCode, errorMessage, isClientError } from '../lib/errors.ts'
import { optionalEnum, searchParams } from '../lib/search-params.ts'
import { requireUser } from '../lib/session.ts'
import { useSite } from '../lib/site.ts'
import type { RouterOutputs } from '../lib/types.ts'
import { useTRPC } from '../lib/use-trpc.ts'

type CartTotal = NonNullable<RouterOutputs['cart']['list']>['totals'][number]

/** The currency group being paid: the one the URL names, else the cart's first. */
const payableGroup = (totals: CartTotal[], currency?: string) =>
  totals.find((total) => total.currency === currency) ?? totals[0]

const routeSearch = searchParams({ currency: optionalEnum(CURRENCIES) })

export const Route = createFileRoute('/payment')({
  validateSearch: routeSearch,
  // Visitors log in first and come back here; an empty cart goes back to /cart. Both before anything renders.
  beforeLoad: async ({ context, location, preload }) => {
    await requireUser(context, location.href, { notice: 'Please log in to continue', preload })
  },
  loaderDeps: ({ search }) => ({ currency: search.currency }),
  loader: async ({ context: { queryClient, trpc }, deps, preload }) => {
    // fetchQuery, not ensureQueryData: a cart invalidated by a change elsewhere is read again before deciding.
    const [cart] = await Promise.all([
      queryClient.fetchQuery(trpc.cart.list.queryOptions()),
      queryClient.prefetchQuery(trpc.payments.options.queryOptions()),
    ])
    if (!cart || !payableGroup(cart.totals, deps.currency)) {
      if (!preload) notify('error', CART_MESSAGES.empty)
      throw redirect({ to: '/cart', replace: true })
    }
  },
  head: () => ({ meta: [{ title: 'Checkout | SkillForge' }] }),
  pendingComponent: () => <LoadingState label="Loading checkout…" />,
  errorComponent: routeError(CART_MESSAGES.loadFailed),
  component: PaymentPage,
})

function PaymentPage() {
  return (
    <main>
      <PageIntro title="Checkout" />
      <Container className={css({ py: '8' })}>
        <Checkout />
      </Container>
    </main>
  )
}

function Checkout() {
  const trpc = useTRPC()
  const { data: cart } = useSuspenseQuery(trpc.cart.list.queryOptions())
  const search = Route.useSearch()
  const location = useLocation()
  const navigate = useNavigate()
  const refresh = useRefreshPurchases()
  const payment = usePaymentChoice()
  const { method, bankOrder } = payment
  const start = useMutation(trpc.payments.start.mutationOptions())
  const site = useSite()
  const [billing, setBilling] = useState<BillingDetailsValue>(EMPTY_BILLING)
  // Checkout recovery (issue 32): offered, never pre-ticked.
  const [remindMe, setRemindMe] = useState(false)
  const payButton = useRef<HTMLButtonElement>(null)

  const totals = cart?.totals ?? []
  const group = payableGroup(totals, search.currency)
  // The route only opens with something to pay; the cart can still empty meanwhile (the bank transfer just
  // confirmed, or another tab).
  if (!cart || !group) {
    if (bankOrder) return <LoadingState label="Redirecting…" />
    return (
      <EmptyState title={CART_MESSAGES.empty}>
        <Link to="/cart" className={`${button()} ${css({ mt: '4' })}`}>
          Back to Cart
        </Link>
      </EmptyState>
    )
  }

  const { currency } = group
  const lines = cart.items.filter((line) => line.currency === currency)

  const free = group.totalMinor === 0
  // The total shown on Pay: the server refuses a cart that now comes to another (decision 0145).
  const shownTotalMinor = group.totalMinor

  async function pay() {
    if (busy) return
    if (!method && !free) {
      notify('error', PAYMENT_MESSAGES.selectMethod)
      return
    }
    try {
      const started = await start.mutateAsync({
        currency,
        method: free ? 'free' : method!,
        billing,
        remindMe,
        shownTotalMinor,
      })
      if (started.method === 'free') {
        notify('success', PAYMENT_MESSAGES.freeCompleted)
        await refresh()
        await navigate({ to: '/account', hash: 'my-courses' })
      } else if (started.method === 'card') {
        notify('info', PAYMENT_MESSAGES.redirected)
        window.location.assign(started.url)
      } else if (started.method === 'paypal') {
        window.open(started.url, '_blank', 'noopener,noreferrer')
        notify(
          'info',
          `Your order ${started.reference} for ${formatMoney(started.totalMinor, started.currency)} is pending until we confirm your PayPal payment.`,
        )
        // The cart now holds the pending PayPal order (with its link and reference) until staff confirm it.
        await refresh()
        await navigate({ to: '/cart' })
      } else {
        payment.showBankOrder(started)
      }
    } catch (error) {
      if (errorCode(error) === 'UNAUTHORIZED') {
        notify('error', 'Please log in to complete your purchase')
        await navigate({ to: '/login', search: { redirect: location.href } })
        return
      }
      notifyError(error, errorMessage(error, PAYMENT_MESSAGES.sessionFailed))
      // A refusal may mean the cart is not what this page shows (changed elsewhere, its code used up and removed):
      // the cart and its totals load again, so Pay shows what a retry would charge.
      if (isClientError(error)) await refresh()
    }
  }

  async function transferMade() {
    if (!bankOrder) return
    try {
      await payment.confirmTransfer(bankOrder)
      notify('success', PAYMENT_MESSAGES.bankSaved)
      await refresh()
      await navigate({ to: '/' })
    } catch (error) {
      notifyError(error)
    }
  }

  const busy = start.isPending || payment.bankDialog.confirming
  return (
    <div className={css({ display: 'grid', gap: '8', gridTemplateColumns: { base: '1fr', lg: '3fr 2fr' } })}>
      <section aria-label="Payment" className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
        {totals.length > 1 ? (
          <SelectField
            label="Items to pay for"
            value={group.currency}
            onChange={(event) =>
              void navigate({ to: '/payment', search: { currency: event.target.value as 'USD' | 'GBP' } })
            }
          >
            <Options
              items={totals}
              value={(total) => total.currency}
              label={(total) => `${total.currency} items (${formatMoney(total.totalMinor, total.currency)})`}
            />
          </SelectField>
        ) : null}
        {free ? (
          <p className={css({ color: 'fg.muted' })}>Everything in this order is free: no payment is needed.</p>
        ) : (
          <PaymentMethods {...payment.methods} />
        )}
        {!free && method === 'paypal' && payment.options?.paypalButtons.length
          ? payment.options.paypalButtons.map((item) => <PaypalHostedButton key={item.serviceId} {...item} />)
          : null}
        {free ? null : <BillingDetailsFields value={billing} onChange={setBilling} />}
        {free ? null : (
          <CheckboxField
            label="E-mail me a reminder about this cart"
            checked={remindMe}
            onChange={(event) => setRemindMe(event.currentTarget.checked)}
          />
        )}
        {free ? null : <TrialNote total={group} method={method} />}
        <PlanWithServiceNote lines={lines} />
        <OtherSellersNote lines={lines} />
        <button
          ref={payButton}
          type="button"
          className={button({ size: 'lg' })}
          onClick={() => void pay()}
          aria-disabled={busy}
          disabled={mixesPlanAndService(lines) || holdsOtherSellers(lines, site)}
        >
          {start.isPending ? 'Processing...' : free ? 'Complete Enrolment' : <PayLabel total={group} method={method} />}
        </button>
      </section>
      <CartSummary total={group}>
        <ul className={css({ mt: '4', display: 'flex', flexDir: 'column', gap: '2', fontSize: 'sm' })}>
          {lines.map((line) => (
            <li
              key={line.id}
              className={css({ display: 'flex', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}
            >
              <span>{line.title}</span>
              <span>
                {line.discountMinor > 0 ? (
                  <s className={css({ color: 'fg.muted', mr: '2' })}>{formatMoney(line.priceMinor, line.currency)}</s>
                ) : null}
                {formatMoney(line.priceMinor - line.discountMinor, line.currency)}
                {perInterval(line)}
              </span>
              <BundleOverlap overlap={line.bundleOverlap} />
            </li>
          ))}
        </ul>
      </CartSummary>
      <BankTransferDialog
        {...payment.bankDialog}
        returnFocusTo={() => payButton.current}
        onConfirm={() => void transferMade()}
      />
    </div>
  )
}

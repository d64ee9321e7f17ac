import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { whilePending } from '#client/lib/while-pending.ts'
import { CART_MESSAGES, mixesPlanAndService } from '#shared/cart.ts'
import { codeNoLongerApplies } from '#shared/promotions.ts'
import { css } from '#styled-system/css'
import { CartItemRow } from '../components/cart/CartItemRow.tsx'
import { CartSummary } from '../components/cart/CartSummary.tsx'
import { CouponForm } from '../components/cart/CouponForm.tsx'
import { useRefreshPurchases } from '../components/cart/hooks.ts'
import { holdsOtherSellers, OtherSellersNote } from '../components/cart/OtherSellersNote.tsx'
import { PendingOrders } from '../components/cart/PendingOrders.tsx'
import { PlanWithServiceNote } from '../components/cart/PlanWithServiceNote.tsx'
import { PageIntro } from '../components/layout/PageIntro.tsx'
import { button } from '../components/ui/button.ts'
import { Container } from '../components/ui/layout.tsx'
import { routeError } from '../components/ui/RouteError.tsx'
import { EmptyState, LoadingState } from '../components/ui/states.tsx'
import { notify, notifyError } from '../components/ui/toaster.tsx'
import { focusElement, pageHeading } from '../lib/focus.ts'
import { useSite } from '../lib/site.ts'
import { useTRPC } from '../lib/use-trpc.ts'

export const Route = createFileRoute('/cart')({
  // null for a visitor, who is asked to log in.
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.cart.list.queryOptions()),
  head: () => ({ meta: [{ title: 'Your Cart | SkillForge' }] }),
  pendingComponent: () => <LoadingState label="Loading your cart…" />,
  errorComponent: routeError(CART_MESSAGES.loadFailed),
  component: CartPage,
})

function CartPage() {
  const trpc = useTRPC()
  const signedIn = useSuspenseQuery(trpc.cart.list.queryOptions()).data !== null
  return (
    <main>
      <PageIntro title="Your Cart" />
      <Container className={css({ py: '8' })}>
        {signedIn ? <PendingOrders /> : null}
        <CartContent />
      </Container>
    </main>
  )
}

function CartContent() {
  const trpc = useTRPC()
  const cart = useSuspenseQuery(trpc.cart.list.queryOptions())
  const site = useSite()
  const refresh = useRefreshPurchases()
  const navigate = useNavigate()
  const remove = useMutation(trpc.cart.remove.mutationOptions())
  const clear = useMutation(trpc.cart.clear.mutationOptions())
  const list = useRef<HTMLUListElement>(null)
  const itemsHeading = useRef<HTMLHeadingElement>(null)
  // After Remove, the line's button is gone: focus goes to the next line's Remove button, else to the items
  // heading, else (the cart is now empty) to the page heading. Set before the removal, used once the cart reloads.
  const focusAfterRemove = useRef<number | null>(null)
  useEffect(() => {
    const index = focusAfterRemove.current
    if (index === null || !cart.data) return
    focusAfterRemove.current = null
    const buttons = list.current?.querySelectorAll<HTMLElement>('[data-remove]')
    focusElement(buttons?.[index]) || focusElement(itemsHeading.current) || focusElement(pageHeading())
  }, [cart.data])

  if (cart.data === null) {
    return (
      <EmptyState title="Please Log In">
        <p className={css({ mt: '2' })}>Log in to see your cart and check out.</p>
        <Link to="/login" className={`${button()} ${css({ mt: '4' })}`}>
          Log In
        </Link>
      </EmptyState>
    )
  }
  const { items, totals } = cart.data
  if (items.length === 0) {
    return (
      <EmptyState title={CART_MESSAGES.empty}>
        <p className={css({ mt: '2' })}>Browse our courses and services to find something you like.</p>
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'center', flexWrap: 'wrap', mt: '4' })}>
          <Link to="/courses" className={button()}>
            Browse Courses
          </Link>
          <Link to="/services" className={button({ variant: 'outline' })}>
            Browse Services
          </Link>
        </div>
      </EmptyState>
    )
  }

  async function removeItem(itemId: string) {
    focusAfterRemove.current = items.findIndex((line) => line.id === itemId)
    try {
      const { droppedCode } = await remove.mutateAsync({ itemId })
      // The code covered nothing left: it went with the line, and the buyer is told rather than left to notice.
      notify(
        'success',
        droppedCode ? `${CART_MESSAGES.removed}. ${codeNoLongerApplies(droppedCode)}` : CART_MESSAGES.removed,
      )
    } catch (error) {
      focusAfterRemove.current = null
      notifyError(error, CART_MESSAGES.removeFailed)
    }
    await refresh()
  }
  async function clearAll() {
    try {
      await clear.mutateAsync()
      notify('success', CART_MESSAGES.cleared)
    } catch (error) {
      notifyError(error, CART_MESSAGES.clearFailed)
    }
    await refresh()
    // The lines and the Clear Cart button are gone.
    focusElement(pageHeading())
  }
  async function checkout(currency: 'USD' | 'GBP') {
    const fresh = await cart.refetch()
    if (fresh.data === null) {
      notify('error', CART_MESSAGES.loginToCheckout)
      await navigate({ to: '/login' })
      return
    }
    if (!fresh.data?.items.some((item) => item.currency === currency)) {
      notify('error', CART_MESSAGES.empty)
      return
    }
    await navigate({ to: '/payment', search: { currency } })
  }

  return (
    <div className={css({ display: 'grid', gap: '8', gridTemplateColumns: { base: '1fr', lg: '2fr 1fr' } })}>
      <section aria-label="Cart items">
        <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: '4' })}>
          <h2 ref={itemsHeading} tabIndex={-1} className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
            {items.length} {items.length === 1 ? 'item' : 'items'}
          </h2>
          <button
            type="button"
            className={button({ variant: 'outline', size: 'sm' })}
            {...whilePending(clear.isPending, 'onClick', () => void clearAll())}
          >
            Clear Cart
          </button>
        </div>
        <ul ref={list} className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
          {items.map((line) => (
            <CartItemRow
              key={line.id}
              line={line}
              removing={remove.isPending && remove.variables?.itemId === line.id}
              onRemove={() => void removeItem(line.id)}
            />
          ))}
        </ul>
      </section>
      <div className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
        {totals.length > 1 ? (
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            Your cart holds items in more than one currency. Each currency is checked out separately.
          </p>
        ) : null}
        <CouponForm applied={cart.data.coupon} />
        {totals.map((total) => {
          const group = items.filter((line) => line.currency === total.currency)
          return (
            <CartSummary key={total.currency} total={total}>
              <PlanWithServiceNote lines={group} />
              <OtherSellersNote lines={group} />
              <button
                type="button"
                className={`${button({ size: 'lg' })} ${css({ w: 'full', mt: '4' })}`}
                disabled={mixesPlanAndService(group) || holdsOtherSellers(group, site)}
                onClick={() => void checkout(total.currency)}
              >
                Proceed to Checkout{totals.length > 1 ? ` (${total.currency})` : ''}
              </button>
            </CartSummary>
          )
        })}
      </div>
    </div>
  )
}

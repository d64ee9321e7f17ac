// The member's plan told in words, and what they can do with it: cancel (at the period's end), resume, change plan
// (the prorated amount shown first) and manage billing in Stripe's portal.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useRef, useState } from 'react'
import { useFocusWhenLost } from '#client/lib/focus.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import type { BillingCycleValue } from '#shared/cart.ts'
import { formatDate } from '#shared/dates.ts'
import { nextChargeDay } from '#shared/membership.ts'
import { formatMoney } from '#shared/money.ts'
import { css, cx } from '#styled-system/css'
import { DocumentLinks } from '../purchases/OrderActions.tsx'
import { button } from '../ui/button.ts'
import { borderedCard } from '../ui/card.ts'
import { EmptyState, ErrorState, LoadingState } from '../ui/states.tsx'
import { notify, notifyError } from '../ui/toaster.tsx'
import { CancelMembershipDialog } from './CancelMembershipDialog.tsx'
import { ChangePlanDialog } from './ChangePlanDialog.tsx'

export type PlanChoice = { planId: string; billingCycle: BillingCycleValue }

const card = cx(borderedCard, css({ p: '6' }))

/** Every membership change refreshes what depends on it (this page, entitlements, order history). */
export function useRefreshMembership() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.membership.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.purchases.pathKey() }),
    ])
}

export function MembershipPanel({ wanted }: { wanted: PlanChoice | null }) {
  const trpc = useTRPC()
  const membership = useQuery(trpc.membership.get.queryOptions())
  const gift = useQuery(trpc.purchases.entitlements.queryOptions()).data?.gift ?? null
  const refresh = useRefreshMembership()
  const [dialog, setDialog] = useState<'cancel' | 'change' | null>(wanted ? 'change' : null)
  const resume = useMutation(trpc.membership.resume.mutationOptions())
  const portal = useMutation(trpc.membership.billingPortal.mutationOptions())
  // Cancelling or resuming replaces the button pressed: focus goes to the new status, not back to the top of the page.
  const status = useRef<HTMLParagraphElement>(null)
  const shown = membership.data
  useFocusWhenLost(
    membership.isPending ? undefined : `${shown?.statusText}|${shown?.canCancel}|${shown?.canResume}`,
    () => status.current,
  )

  if (membership.isPending) return <LoadingState label="Loading your membership…" />
  if (membership.isError) {
    return (
      <ErrorState
        title="Failed to load your membership"
        error={membership.error}
        onRetry={() => void membership.refetch()}
      />
    )
  }
  const m = membership.data
  if (!m && gift) {
    // A plan received as a gift: no subscription to run, nothing to cancel; it ends on its own.
    return (
      <section className={card} aria-labelledby="membership-plan">
        <h2 id="membership-plan" className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
          {gift.planName} plan, a gift
        </h2>
        <p data-testid="membership-status-text" className={css({ mt: '2', fontSize: 'lg' })}>
          {gift.endsAt ? `Active until ${formatDate(gift.endsAt)}; it does not renew` : 'Active; it does not renew'}
        </p>
      </section>
    )
  }
  if (!m) {
    return (
      <EmptyState title="You have no membership yet">
        <Link to="/pricing" className={button()}>
          See plans
        </Link>
      </EmptyState>
    )
  }

  async function onResume() {
    try {
      await resume.mutateAsync()
      notify('success', 'Your membership will continue')
    } catch (error) {
      notifyError(error, 'Could not resume your membership')
    }
    await refresh()
  }

  async function onManageBilling() {
    try {
      const { url } = await portal.mutateAsync()
      window.location.assign(url)
    } catch (error) {
      notifyError(error, 'Could not open billing')
    }
  }

  // A payment is owed: the card is updated in Stripe's portal first; Change plan is not offered until then.
  const pastDue = m.status === 'past_due'
  return (
    <section className={card} aria-labelledby="membership-plan">
      <h2 id="membership-plan" className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
        {m.planName} plan, billed {m.billingCycle === 'annual' ? 'annually' : 'monthly'}
      </h2>
      <p ref={status} data-testid="membership-status-text" className={css({ mt: '2', fontSize: 'lg' })}>
        {m.statusText}
      </p>
      {/* Only a plan that will renew gets a renewal order: not one cancelled, ended or set to cancel. */}
      {m.paidBy === 'manual' && m.canCancel ? (
        <p className={css({ mt: '1', color: 'fg.muted', fontSize: 'sm' })}>
          Paid by PayPal or bank transfer: we send a renewal order 7 days before each renewal.
        </p>
      ) : null}
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', mt: '5' })}>
        {m.canChangePlan ? (
          <button type="button" className={button()} onClick={() => setDialog('change')}>
            Change plan
          </button>
        ) : null}
        {m.canResume ? (
          <button
            type="button"
            className={button()}
            {...whilePending(resume.isPending, 'onClick', () => void onResume())}
          >
            {resume.isPending ? 'Resuming…' : 'Resume'}
          </button>
        ) : null}
        {m.canManageBilling ? (
          <button
            type="button"
            className={button({ variant: pastDue ? 'primary' : 'outline' })}
            {...whilePending(portal.isPending, 'onClick', () => void onManageBilling())}
          >
            {portal.isPending ? 'Opening…' : pastDue ? 'Update card' : 'Manage billing'}
          </button>
        ) : null}
        {m.canCancel ? (
          <button type="button" className={button({ variant: 'outline' })} onClick={() => setDialog('cancel')}>
            Cancel membership
          </button>
        ) : null}
        {m.canSubscribeAgain ? (
          <Link to="/pricing" className={button()}>
            Subscribe again
          </Link>
        ) : null}
      </div>
      {m.invoices.length > 0 ? (
        <section aria-labelledby="membership-invoices" className={css({ mt: '6' })}>
          <h3 id="membership-invoices" className={css({ fontWeight: 'bold' })}>
            Invoices
          </h3>
          <ul className={css({ mt: '2', display: 'grid', gap: '2' })}>
            {m.invoices.map((invoice) => (
              <li key={invoice.id} className={css({ display: 'grid', gap: '1' })}>
                <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>
                  {formatDate(invoice.issuedAt)} · {formatMoney(invoice.totalMinor, invoice.currency)}
                </span>
                <ul>
                  <DocumentLinks kind="invoice" id={invoice.id} number={invoice.number} label="Invoice" />
                </ul>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <CancelMembershipDialog
        open={dialog === 'cancel'}
        endsOn={nextChargeDay(m)}
        trialing={m.status === 'trialing'}
        onClose={() => setDialog(null)}
        onDone={refresh}
      />
      {m.canChangePlan ? (
        <ChangePlanDialog
          open={dialog === 'change'}
          current={{ planId: m.planId, billingCycle: m.billingCycle }}
          initial={wanted}
          onClose={() => setDialog(null)}
          onDone={refresh}
        />
      ) : null}
    </section>
  )
}

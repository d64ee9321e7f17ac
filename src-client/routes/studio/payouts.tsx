// /studio/payouts: where a creator's money goes. "Set up payouts" makes their Stripe Express account and opens
// Stripe's hosted onboarding; back here (?return=1, or ?refresh=1 when the link expired) the page shows the account's
// state as account.updated last told it: what Stripe still needs and by when, with a link back to Stripe, or the
// Express dashboard once onboarded. Tax details are collected by Stripe, not by us.
import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { button } from '#client/components/ui/button.ts'
import { FormAlert } from '#client/components/ui/form.tsx'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { panelSurface } from '#client/components/ui/panel.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState, Spinner } from '#client/components/ui/states.tsx'
import { errorMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { payoutRequirementLabels } from '#shared/payout-requirements.ts'
import { css, cx } from '#styled-system/css'

type Search = { return?: 1; refresh?: 1 }

export const Route = createFileRoute('/studio/payouts')({
  validateSearch: (search: Record<string, unknown>): Search => ({
    ...(String(search.return) === '1' ? { return: 1 as const } : {}),
    ...(String(search.refresh) === '1' ? { refresh: 1 as const } : {}),
  }),
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(context.trpc.earnings.overview.queryOptions()),
      context.queryClient.ensureQueryData(context.trpc.earnings.payoutGate.queryOptions()),
    ]),
  head: () => ({ meta: [{ title: 'Payouts | SkillForge Studio' }] }),
  pendingComponent: () => <LoadingState label="Loading your payout account…" />,
  errorComponent: routeError('Could not load your payout account'),
  component: PayoutsPage,
})

const card = cx(panelSurface, css({ display: 'flex', flexDir: 'column', gap: '3', alignItems: 'flex-start' }))

function PayoutsPage() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const { data: overview } = useSuspenseQuery(trpc.earnings.overview.queryOptions())
  const { data: gate } = useSuspenseQuery(trpc.earnings.payoutGate.queryOptions())
  const [error, setError] = useState<string | null>(null)
  const setUp = useMutation(trpc.earnings.setUpPayouts.mutationOptions())
  const dashboard = useMutation(trpc.earnings.dashboardLink.mutationOptions())
  const account = overview.payoutAccount

  async function go(event: FormEvent<HTMLFormElement>, which: 'setUp' | 'dashboard') {
    event.preventDefault()
    setError(null)
    try {
      const { url } = which === 'setUp' ? await setUp.mutateAsync() : await dashboard.mutateAsync()
      window.location.assign(url)
    } catch (caught) {
      setError(errorMessage(caught))
    }
  }

  const busy = setUp.isPending || dashboard.isPending
  /** A button to one of Stripe's pages (its setup, or the dashboard): a form, sent once however it is pressed. */
  const stripeLink = (which: 'setUp' | 'dashboard', label: string, variant?: 'outline') => {
    const opening = (which === 'setUp' ? setUp : dashboard).isPending
    return (
      <form {...SCRIPT_ONLY_FORM} onSubmit={(event) => go(event, which)}>
        <button
          type="submit"
          className={button(variant ? { variant } : {})}
          {...submitWhilePending(busy)}
          aria-busy={opening || undefined}
        >
          {opening ? <Spinner label="Opening Stripe" /> : null}
          {label}
        </button>
      </form>
    )
  }
  return (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
      <PageIntro title="Payouts">
        We pay your available balance on the 1st of each month through Stripe, once it reaches the payout threshold.
      </PageIntro>
      {search.refresh ? (
        <FormAlert kind="success">
          That Stripe link expired: continue on Stripe to pick up where you left off.
        </FormAlert>
      ) : null}
      <FormAlert>{error}</FormAlert>

      <TitledSection id="account-heading" title="Your payout account" className={card}>
        {account.state === 'not_set_up' && gate.needsSecondFactor ? (
          <>
            <p role="status">
              Payouts move your money, so they need <strong>two-factor sign-in</strong> on your account first.
            </p>
            <Link to="/account/security" className={button()}>
              Turn on two-factor sign-in
            </Link>
          </>
        ) : account.state === 'not_set_up' ? (
          <>
            <p>Payouts are not set up yet. Stripe asks for your details and bank account on its own pages.</p>
            {stripeLink('setUp', 'Set up payouts')}
          </>
        ) : account.state === 'needs_info' ? (
          <>
            <p role="status">
              <strong>Stripe needs more information</strong> before it can pay you
              {account.deadline ? <> (by {formatDate(account.deadline)})</> : null}.
            </p>
            {account.requirementsDue.length > 0 ? (
              <>
                <p>Still to give:</p>
                <ul className={css({ listStyle: 'disc', pl: '6' })}>
                  {payoutRequirementLabels(account.requirementsDue).map((label) => (
                    <li key={label}>{label}</li>
                  ))}
                </ul>
              </>
            ) : null}
            {stripeLink('setUp', 'Continue on Stripe')}
          </>
        ) : (
          <p role="status">
            <strong>Ready:</strong> Stripe can pay you. Your next payout is on the 1st.
          </p>
        )}
        {account.detailsSubmitted ? stripeLink('dashboard', 'Open Stripe dashboard', 'outline') : null}
        {search.return && account.state !== 'ready' ? (
          <p className={css({ color: 'fg.muted' })}>
            Back from Stripe: it may take a moment for Stripe to confirm your details. Reload to check.
          </p>
        ) : null}
      </TitledSection>

      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
        Tax details (a W-9 or W-8 form, or your country’s equivalent) are collected by Stripe during setup, not by us.
      </p>
    </main>
  )
}

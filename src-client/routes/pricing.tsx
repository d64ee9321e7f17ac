import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { useSession } from '#client/lib/session.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { PLATFORM_FEE_BASIS_POINTS } from '#shared/creator-plans.ts'
import { annualSavingPercent } from '#shared/membership.ts'
import { css, cx } from '#styled-system/css'
import { useEntitlements } from '../components/cart/hooks.ts'
import { PlanCartButton } from '../components/cart/PlanCartButton.tsx'
import { ClosingBand } from '../components/layout/bands.tsx'
import { ComparisonTable } from '../components/pricing/ComparisonTable.tsx'
import { type BillingCycle, PlanCard } from '../components/pricing/PlanCard.tsx'
import { button } from '../components/ui/button.ts'
import { Faq } from '../components/ui/Faq.tsx'
import { Container, Section } from '../components/ui/layout.tsx'
import { routeError } from '../components/ui/RouteError.tsx'
import { LoadingState } from '../components/ui/states.tsx'
import { seo } from '../lib/seo.ts'

export const Route = createFileRoute('/pricing')({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.plans.list.queryOptions()),
  head: ({ loaderData }) =>
    seo({
      title: 'Pricing',
      description: `Simple plans for course creators: Basic, Pro and Enterprise, billed monthly or annually${savingText(loaderData?.plans ?? [], ' (save {n}%)')}.`,
    }),
  pendingComponent: () => <LoadingState label="Loading plans…" />,
  errorComponent: routeError('Failed to load plans'),
  component: PricingPage,
})

type Plans = RouterOutputs['plans']['list']['plans']

/** `template` with the annual saving the plans' prices give ("{n}"), or nothing when annual saves nothing. */
function savingText(plans: Plans, template: string): string {
  const percent = annualSavingPercent(plans)
  return percent > 0 ? template.replace('{n}', String(percent)) : ''
}

const faqs = (plans: Plans, methods: { card: boolean; paypal: boolean }) => [
  {
    question: 'Is there a free trial?',
    answer:
      'Yes. Every plan starts with a 7-day free trial, so you can build and publish your first course before you pay anything. Cancel during the trial and you will not be charged.',
  },
  {
    question: 'Can I change plans later?',
    answer:
      'You can upgrade or downgrade at any time from Membership in your account. A change takes effect immediately: you see the prorated amount before you confirm, and a downgrade is credited against your next payments.',
  },
  {
    question: 'How does annual billing work?',
    answer: `Annual plans are paid once a year${savingText(plans, ' and cost at least {n}% less than paying monthly for twelve months')}.`,
  },
  {
    question: 'What payment methods do you accept?',
    // Only the ways this store is set up to take (plans.list's paymentMethods).
    answer: `We accept ${[
      methods.card ? 'all major credit and debit cards through our secure card payment provider' : null,
      methods.paypal ? 'PayPal' : null,
      'bank transfer',
    ]
      .filter(Boolean)
      .join(', ')
      .replace(/, ([^,]*)$/, ' and $1')}.`,
  },
  {
    question: 'Do you take a share of my course sales?',
    // The fee the earnings ledger takes (creator-plans.ts), as /teach and Studio → Earnings state it.
    answer: `Yes, a platform fee on each sale of your courses: ${PLATFORM_FEE_BASIS_POINTS.basic / 100}% on Basic, ${PLATFORM_FEE_BASIS_POINTS.pro / 100}% on Pro and ${PLATFORM_FEE_BASIS_POINTS.enterprise / 100}% on Enterprise, of the price after any discount and before tax. When a buyer pays by card, the card processor's fee also comes off your share.`,
  },
]

function PricingPage() {
  const { trpc } = Route.useRouteContext()
  const { data: plans } = useSuspenseQuery(trpc.plans.list.queryOptions())
  // A member sees their plan and Change plan instead of buying twice; after one trial, a plan starts paid.
  const { data: entitlements } = useEntitlements()
  const current = entitlements?.plan ?? null
  const trialAvailable = entitlements?.trialAvailable ?? true
  const { user } = useSession()
  const [cycle, setCycle] = useState<BillingCycle>('monthly')
  const planAction = (planId: string) =>
    !current ? (
      <PlanCartButton key={cycle} planId={planId} billingCycle={cycle} />
    ) : current.id === planId && current.billingCycle === cycle ? (
      <button type="button" className={button({ variant: 'outline' })} disabled>
        Your current plan
      </button>
    ) : (
      <Link to="/account/membership" search={{ plan: planId, cycle }} className={button({ variant: 'outline' })}>
        Change plan
      </Link>
    )
  const toggle = (value: BillingCycle, text: string) => (
    <button
      type="button"
      aria-pressed={cycle === value}
      onClick={() => setCycle(value)}
      className={cx(button({ variant: cycle === value ? 'primary' : 'ghost' }), css({ borderRadius: 'full' }))}
    >
      {text}
    </button>
  )
  return (
    <main>
      <section className={css({ bg: 'brand.50', textAlign: 'center' })}>
        <Container className={css({ py: { base: '12', md: '16' } })}>
          <h1 className={css({ fontSize: { base: '3xl', md: '5xl' }, fontWeight: 'extrabold' })}>
            Simple, Transparent Pricing
          </h1>
          <p className={css({ mt: '3', color: 'fg.muted', maxW: '2xl', mx: 'auto' })}>
            Choose the plan that fits your teaching business. Every plan starts with a 7-day free trial.
          </p>
          {trialAvailable ? null : (
            <p data-testid="trial-used" className={css({ mt: '2', fontWeight: 'semibold' })}>
              You have already had your free trial: a new plan starts with its first payment.
            </p>
          )}
          <fieldset
            className={css({
              display: 'inline-flex',
              gap: '1',
              mt: '8',
              p: '1',
              bg: 'surface',
              borderRadius: 'full',
              boxShadow: 'card',
            })}
          >
            <legend className={css({ srOnly: true })}>Billing cycle</legend>
            {toggle('monthly', 'Monthly')}
            {toggle('annual', `Annual${savingText(plans.plans, ' (Save {n}%)')}`)}
          </fieldset>
        </Container>
      </section>
      <Section>
        <div
          id="plans"
          className={css({
            display: 'grid',
            gap: '6',
            pt: '3',
            // Side by side from a laptop's width: on a 768 px tablet the prices needed more than a third each.
            gridTemplateColumns: { base: '1fr', lg: 'repeat(3, 1fr)' },
          })}
        >
          {plans.plans.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              cycle={cycle}
              cartAction={
                <>
                  {planAction(plan.id)}
                  <Link
                    to="/gifts/new"
                    search={{ plan: plan.id }}
                    className={button({ variant: 'outline' })}
                    aria-label={`Buy as a gift: ${plan.name}`}
                  >
                    Buy as a gift
                  </Link>
                </>
              }
            />
          ))}
        </div>
        <p data-testid="plans-premium" className={css({ mt: '8', textAlign: 'center', color: 'fg.muted' })}>
          Every plan also makes you a Premium member while it runs:{' '}
          <Link to="/account/premium" className={css({ color: 'accent', textDecoration: 'underline' })}>
            unlimited premium courses, offline downloads, live webinars and messages to instructors
          </Link>
          .
        </p>
        <h2 className={css({ fontSize: '2xl', fontWeight: 'bold', mt: '16', mb: '6', textAlign: 'center' })}>
          Compare Plans
        </h2>
        <ComparisonTable rows={plans.comparison} planNames={plans.plans.map((plan) => plan.name)} />
      </Section>
      <Section>
        <h2 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '6', textAlign: 'center' })}>
          Frequently Asked Questions
        </h2>
        <Faq items={faqs(plans.plans, plans.paymentMethods)} />
      </Section>
      {/* What the band offers follows the visitor: a trial to sign up for, a plan to choose, or the plan they hold. */}
      <ClosingBand
        title="Start teaching today"
        text={
          current
            ? 'Change your plan or its billing any time from Membership in your account.'
            : trialAvailable
              ? 'Try any plan free for 7 days. No commitment, cancel anytime.'
              : 'Choose a plan above: it starts with its first payment, and you can cancel anytime.'
        }
        action={
          current
            ? { to: '/account/membership', label: 'Manage your plan' }
            : user
              ? { to: '/pricing', hash: 'plans', label: trialAvailable ? 'Start Free Trial' : 'Choose a plan' }
              : { to: '/signup', search: { redirect: '/pricing' }, label: 'Start Free Trial' }
        }
        secondary={{ to: '/contact', label: 'Talk to Sales' }}
      />
    </main>
  )
}

// The premium account page. Premium, the plan and the renewal date (or, once cancelled, the day it ends) come from the
// server's subscription (or, for a plan received as a gift, its plan and end date), in the membership page's words.
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { MyCourses } from '#client/components/purchases/MyCourses.tsx'
import { button } from '#client/components/ui/button.ts'
import { borderedCard } from '#client/components/ui/card.ts'
import { Container } from '#client/components/ui/layout.tsx'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'

export const Route = createFileRoute('/_auth/account_/premium')({
  // Membership is the page; My courses shows its own error if it fails.
  loader: ({ context: { queryClient, trpc } }) =>
    Promise.all([
      queryClient.ensureQueryData(trpc.purchases.membership.queryOptions()),
      queryClient.prefetchQuery(trpc.learning.myCourses.queryOptions()),
    ]),
  head: () => ({ meta: [{ title: 'Premium Account | SkillForge' }] }),
  component: PremiumPage,
})

// A benefit not built yet is not claimed as given (issue 34): it says it is coming. Each one built links to itself.
const BENEFITS: { name: string; href?: string; to?: '/account/messages' | '/live' }[] = [
  { name: 'Unlimited access to premium courses' },
  // A static page kept by the service worker (public/saved.html), not a route of the app: a plain link.
  { name: 'Offline downloads', href: '/saved' },
  { name: 'Monthly live webinars', to: '/live' },
  { name: 'Direct messaging with instructors', to: '/account/messages' },
]
const card = cx(borderedCard, css({ p: '6' }))

function PremiumPage() {
  const { trpc } = Route.useRouteContext()
  const { data: m } = useSuspenseQuery(trpc.purchases.membership.queryOptions())
  return (
    <main>
      <PageIntro title="Premium Account" />
      <Container className={css({ py: '8' })}>
        <div className={css({ display: 'flex', flexDir: 'column', gap: '8' })}>
          <section className={card} aria-labelledby="membership-title">
            <h2 id="membership-title" className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
              {m.name || m.email}
            </h2>
            <p className={css({ color: 'fg.muted' })}>{m.email}</p>
            {m.isPremium && m.plan ? (
              <div data-testid="membership-status" className={css({ mt: '4' })}>
                <p className={css({ fontWeight: 'bold', color: 'success' })}>Premium Plan</p>
                <p>
                  {m.plan.name} plan, billed {m.plan.billingCycle === 'annual' ? 'annually' : 'monthly'}
                  {m.plan.status === 'trialing' ? ' (free trial)' : ''}
                </p>
                {m.renewsAt ? (
                  <p>
                    {m.plan.cancelAtPeriodEnd
                      ? 'Cancels on'
                      : m.plan.status === 'trialing'
                        ? 'First charge on'
                        : 'Renews on'}{' '}
                    {formatDate(m.renewsAt)}
                  </p>
                ) : null}
              </div>
            ) : m.isPremium && m.gift ? (
              <div data-testid="membership-status" className={css({ mt: '4' })}>
                <p className={css({ fontWeight: 'bold', color: 'success' })}>Premium Plan</p>
                <p>{m.gift.planName} plan, a gift: it does not renew</p>
                {m.gift.endsAt ? <p>Until {formatDate(m.gift.endsAt)}</p> : null}
              </div>
            ) : (
              <div data-testid="membership-status" className={css({ mt: '4' })}>
                <p className={css({ fontWeight: 'bold' })}>Free account</p>
                <Link to="/pricing" className={`${button()} ${css({ mt: '3' })}`}>
                  Activate Premium Access
                </Link>
              </div>
            )}
          </section>
          <section className={card} aria-labelledby="benefits-title">
            <h2 id="benefits-title" className={css({ fontSize: 'lg', fontWeight: 'bold', mb: '3' })}>
              Premium benefits
            </h2>
            <ul className={css({ listStyle: 'disc', pl: '5' })}>
              {BENEFITS.map((benefit) => (
                <li key={benefit.name}>
                  {benefit.to ? (
                    <Link to={benefit.to} className={css({ color: 'accent', textDecoration: 'underline' })}>
                      {benefit.name}
                    </Link>
                  ) : benefit.href ? (
                    <a href={benefit.href} className={css({ color: 'accent', textDecoration: 'underline' })}>
                      {benefit.name}
                    </a>
                  ) : (
                    benefit.name
                  )}
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="my-courses-title">
            <h2 id="my-courses-title" className={css({ fontSize: 'lg', fontWeight: 'bold', mb: '3' })}>
              My courses
            </h2>
            <MyCourses />
          </section>
        </div>
      </Container>
    </main>
  )
}

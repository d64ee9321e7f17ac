// /account/membership: the member's plan in words, with cancel, resume, change plan and billing.
import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { MembershipPanel } from '#client/components/membership/MembershipPanel.tsx'
import { Container } from '#client/components/ui/layout.tsx'
import { optionalEnum, optionalText, searchParams } from '#client/lib/search-params.ts'
import { BILLING_CYCLES } from '#shared/cart.ts'
import { css } from '#styled-system/css'

const routeSearch = searchParams({ plan: optionalText, cycle: optionalEnum(BILLING_CYCLES) })

export const Route = createFileRoute('/_auth/account_/membership')({
  // From pricing's Change plan: the plan and cycle to preview.
  validateSearch: routeSearch,
  loader: ({ context: { queryClient, trpc } }) =>
    Promise.all([
      queryClient.prefetchQuery(trpc.membership.get.queryOptions()),
      queryClient.prefetchQuery(trpc.plans.list.queryOptions()),
    ]),
  head: () => ({ meta: [{ title: 'Membership | SkillForge' }] }),
  component: MembershipPage,
})

function MembershipPage() {
  const { plan, cycle } = Route.useSearch()
  return (
    <main>
      <PageIntro title="Membership">
        <p>Your plan, its billing and what happens next.</p>
      </PageIntro>
      <Container className={css({ py: '10' })}>
        <MembershipPanel wanted={plan ? { planId: plan, billingCycle: cycle ?? 'monthly' } : null} />
      </Container>
    </main>
  )
}

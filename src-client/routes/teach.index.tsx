// /teach: what teaching here means — how a course gets published, what each plan allows, how to apply. A visitor
// is sent to sign up and brought back to the form; a creator goes to the studio; an applicant sees their status.
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { ApplicationStatus } from '#client/components/teach/ApplicationStatus.tsx'
import { button } from '#client/components/ui/button.ts'
import { Container, Section } from '#client/components/ui/layout.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { seo } from '#client/lib/seo.ts'
import { sessionQuery, useSession } from '#client/lib/session.ts'
import {
  CREATOR_PLAN_LIMITS,
  type CreatorPlanId,
  EARNINGS_HOLD_DAYS,
  PLATFORM_FEE_BASIS_POINTS,
} from '#shared/creator-plans.ts'
import { css, cx } from '#styled-system/css'
import { raisedCard } from '../components/ui/card.ts'

export const Route = createFileRoute('/teach/')({
  loader: async ({ context }) => {
    const user = await context.queryClient.ensureQueryData(sessionQuery(context.trpc)).catch(() => null)
    if (user && !user.isCreator) {
      await context.queryClient.prefetchQuery(context.trpc.creators.myApplication.queryOptions())
    }
  },
  head: () =>
    seo({
      title: 'Teach on SkillForge',
      description: 'Apply to teach: build your course in the studio, get it reviewed, and publish it to learners.',
    }),
  pendingComponent: () => <LoadingState label="Loading…" />,
  component: TeachPage,
})

const PLAN_NAMES: Record<CreatorPlanId, string> = { basic: 'Basic', pro: 'Pro', enterprise: 'Enterprise' }
const GB = 1024 ** 3
const steps = [
  { title: 'Apply', text: 'Tell us what you want to teach and to whom. Our content team replies by e-mail.' },
  { title: 'Build a draft', text: 'Once approved, create your course in your studio: curriculum, videos, articles.' },
  { title: 'Submit for review', text: 'Staff check every new course before it goes on sale, and may ask for changes.' },
  { title: 'Publish', text: 'Approved courses appear in the catalogue and search at once.' },
]
const card = cx(raisedCard, css({ p: '6' }))

function TeachPage() {
  const { user, isLoading } = useSession()
  return (
    <main>
      <PageIntro title="Teach on SkillForge">
        Share what you know with learners around the world. Build your course in your own studio, and we review it
        before it goes on sale.
      </PageIntro>
      <Section title="How publishing works">
        <ol className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: 'repeat(4, 1fr)' } })}>
          {steps.map((step, index) => (
            <li key={step.title} className={card}>
              <p className={css({ fontWeight: 'bold', mb: '2' })}>
                {index + 1}. {step.title}
              </p>
              <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{step.text}</p>
            </li>
          ))}
        </ol>
        <p className={css({ mt: '4', fontSize: 'sm', color: 'fg.muted' })}>
          A course moves from draft to in review to published; you can keep editing a published course and its changes
          are reviewed again.
        </p>
      </Section>
      <Section title="What each plan lets you publish">
        <div className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' } })}>
          {(Object.keys(CREATOR_PLAN_LIMITS) as CreatorPlanId[]).map((id) => {
            const limits = CREATOR_PLAN_LIMITS[id]
            return (
              <div key={id} className={card} data-testid="teach-plan">
                <p className={css({ fontWeight: 'bold', fontSize: 'lg' })}>{PLAN_NAMES[id]}</p>
                <ul className={css({ mt: '2', listStyle: 'disc', pl: '5', fontSize: 'sm' })}>
                  <li>
                    {limits.publishedCourses === null
                      ? 'Unlimited courses'
                      : `Up to ${limits.publishedCourses} published courses`}
                  </li>
                  <li>
                    {limits.storageBytes === null
                      ? 'Unlimited video storage'
                      : `${limits.storageBytes / GB} GB of video storage`}
                  </li>
                  <li>Platform fee: {PLATFORM_FEE_BASIS_POINTS[id] / 100} % of each sale</li>
                  <li>
                    {limits.teamMembers === null
                      ? 'Unlimited co-instructors'
                      : limits.teamMembers === 0
                        ? 'No co-instructors'
                        : `Up to ${limits.teamMembers} co-instructors`}
                  </li>
                </ul>
              </div>
            )
          })}
        </div>
        <p className={css({ mt: '4', fontSize: 'sm' })}>
          You can build drafts without a plan; you need one to submit a course.{' '}
          <Link to="/pricing" className={css({ color: 'accent', textDecoration: 'underline' })}>
            See pricing
          </Link>
          .
        </p>
      </Section>
      <Section title="How you are paid">
        <p className={css({ fontSize: 'sm', maxW: '3xl' })}>
          Each sale of your course earns its price after any discount, before tax, less your plan's platform fee and,
          when paid by card, its share of the card processor's fee (and of a chargeback fee if the buyer's bank takes
          the payment back). It waits {EARNINGS_HOLD_DAYS} days (the buyers' refund window), then becomes available. On
          the 1st of each month we pay every available balance of 50.00 or more, per currency, to your bank through
          Stripe (set it up once in your studio's Payouts; Stripe collects your tax details). A refund takes back
          exactly what its sale earned you. Your studio's{' '}
          <a href="/studio/earnings" className={css({ color: 'accent', textDecoration: 'underline' })}>
            Earnings
          </a>{' '}
          page shows every entry, monthly statements and the next payout.
        </p>
      </Section>
      <Container className={css({ pb: '16' })}>
        <div className={card} id="apply">
          <h2 className={css({ fontSize: 'xl', fontWeight: 'bold', mb: '3' })}>Apply to teach</h2>
          {isLoading ? (
            <LoadingState label="Loading…" />
          ) : (
            <ApplyAction signedIn={Boolean(user)} isCreator={Boolean(user?.isCreator)} />
          )}
        </div>
      </Container>
    </main>
  )
}

function ApplyAction({ signedIn, isCreator }: { signedIn: boolean; isCreator: boolean }) {
  const { trpc } = Route.useRouteContext()
  const application = useQuery({ ...trpc.creators.myApplication.queryOptions(), enabled: signedIn && !isCreator })
  if (!signedIn) {
    return (
      <div className={css({ display: 'flex', flexDir: 'column', gap: '3', alignItems: 'start' })}>
        <p>Create a free account first; we bring you back to the application form.</p>
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          <Link to="/signup" search={{ redirect: '/teach/apply' }} className={button({ size: 'lg' })}>
            Apply to teach
          </Link>
          <Link
            to="/login"
            search={{ redirect: '/teach/apply' }}
            className={button({ variant: 'outline', size: 'lg' })}
          >
            I have an account
          </Link>
        </div>
      </div>
    )
  }
  if (isCreator) {
    return (
      <div className={css({ display: 'flex', flexDir: 'column', gap: '3', alignItems: 'start' })}>
        <p>You are a creator already.</p>
        {/* A plain link: the studio's routes are their own part of the app. */}
        <a href="/studio" className={button({ size: 'lg' })}>
          Go to your studio
        </a>
      </div>
    )
  }
  if (application.isPending) return <LoadingState label="Loading your application…" />
  if (application.isError) {
    return <ErrorState title="Could not load your application" onRetry={() => void application.refetch()} />
  }
  if (application.data) return <ApplicationStatus application={application.data} />
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '3', alignItems: 'start' })}>
      <p>It takes about ten minutes: your expertise, the categories you teach, and a proposal for your first course.</p>
      <Link to="/teach/apply" className={button({ size: 'lg' })}>
        Apply to teach
      </Link>
    </div>
  )
}

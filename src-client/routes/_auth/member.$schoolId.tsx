// /member/{schoolId}: what a school's team member (decision 0057) works on, by role — finance: the school's balances
// and monthly statements, and a link to their own API keys (/member/{schoolId}/api); instructor and support: where their work is. The server checks the role on every call
// (creators/school-access.ts); a school the person does not belong to says so. "Leave this school" (once confirmed)
// ends the person's own place on the team, as the owner's removal does (decision 0144).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { BalanceFigures, StatementList } from '#client/components/studio/EarningsPanels.tsx'
import { SchoolAddress } from '#client/components/studio/StudioPage.tsx'
import { NotOnTeam, useSchoolMembership } from '#client/components/team/school-membership.tsx'
import { button } from '#client/components/ui/button.ts'
import { Container, TitledSection } from '#client/components/ui/layout.tsx'
import { panel as card } from '#client/components/ui/panel.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { SCHOOL_ROLE_LABELS } from '#shared/schemas/schools.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/_auth/member/$schoolId')({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.schools.memberships.queryOptions()),
  head: () => ({ meta: [{ title: 'Your school team | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  errorComponent: routeError('Could not load this school'),
  component: MemberPage,
})

function MemberPage() {
  const { schoolId } = Route.useParams()
  const membership = useSchoolMembership(schoolId)
  if (!membership) {
    return (
      <Container className={css({ py: '10' })}>
        <main>
          <PageIntro title="School team" />
          <NotOnTeam />
        </main>
      </Container>
    )
  }
  return (
    <Container className={css({ py: '10' })}>
      <main className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
        <PageIntro title={membership.name}>
          Your role: <strong data-testid="member-role">{SCHOOL_ROLE_LABELS[membership.role]}</strong>. The school’s
          public page is <SchoolAddress slug={membership.slug} />.
        </PageIntro>
        {membership.role === 'finance' ? (
          <>
            <SchoolEarnings schoolId={schoolId} />
            <section className={card} aria-labelledby="api-heading">
              <h2 id="api-heading" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
                API keys
              </h2>
              <p>
                Your own keys read the school’s orders and earnings from your accounting systems.{' '}
                <Link to="/member/$schoolId/api" params={{ schoolId }} className={css({ textDecoration: 'underline' })}>
                  Manage your API keys
                </Link>
              </p>
            </section>
          </>
        ) : (
          <section className={card} aria-labelledby="courses-heading">
            <h2 id="courses-heading" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
              Courses
            </h2>
            <p>
              {membership.role === 'instructor'
                ? 'You edit this school’s courses and answer its learners’ questions and messages.'
                : 'You answer this school’s learners’ questions under each lesson and their messages.'}{' '}
              <Link to="/studio/messages" className={css({ textDecoration: 'underline' })}>
                Open the messages inbox
              </Link>
              .
            </p>
            <SchoolCourses schoolId={schoolId} />
          </section>
        )}
        <LeaveSchool schoolId={schoolId} schoolName={membership.name} />
      </main>
    </Container>
  )
}

/** The member's own way off the team: confirmed first, then the server ends the place (and their API keys for it). */
function LeaveSchool({ schoolId, schoolName }: { schoolId: string; schoolName: string }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [confirming, setConfirming] = useState(false)
  const leave = useMutation(
    trpc.schools.leave.mutationOptions({
      onSuccess: async () => {
        setConfirming(false)
        notify('success', `You left the team of ${schoolName}`)
        await queryClient.invalidateQueries()
        await navigate({ to: '/account' })
      },
      onError: (error) => notifyError(error),
    }),
  )
  return (
    <section className={card} aria-labelledby="leave-heading">
      <h2 id="leave-heading" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
        Leave this school
      </h2>
      <p>You stop working on {schoolName}’s courses, earnings and messages. The owner is told by e-mail.</p>
      <div>
        <button type="button" className={button({ variant: 'outline' })} onClick={() => setConfirming(true)}>
          Leave this school
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Leave ${schoolName}?`}
        description="You will no longer be on its team: its courses, earnings and messages close to you, and the API keys you made for it stop working. Only its owner can invite you again."
        confirmLabel="Leave the school"
        pendingLabel="Leaving…"
        pending={leave.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => leave.mutate({ schoolId })}
      />
    </section>
  )
}

function SchoolCourses({ schoolId }: { schoolId: string }) {
  const { trpc } = Route.useRouteContext()
  const courses = useQuery(trpc.schools.memberCourses.queryOptions({ schoolId }))
  if (courses.isPending) return <LoadingState label="Loading the school’s courses…" />
  if (courses.isError) return <ErrorState title="Could not load the school’s courses" />
  if (courses.data.length === 0) return <p className={css({ color: 'fg.muted' })}>The school has no courses yet.</p>
  return (
    <ul className={css({ display: 'flex', flexDir: 'column', gap: '2', listStyle: 'none', p: 0, m: 0 })}>
      {courses.data.map((course) => (
        <li key={course.id} className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'baseline' })}>
          {course.canEdit ? (
            <Link
              to="/studio/courses/$courseId"
              params={{ courseId: course.id }}
              className={css({ textDecoration: 'underline', overflowWrap: 'anywhere' })}
            >
              {course.title}
            </Link>
          ) : (
            <span className={css({ overflowWrap: 'anywhere' })}>{course.title}</span>
          )}
          <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>{course.status}</span>
        </li>
      ))}
    </ul>
  )
}

function SchoolEarnings({ schoolId }: { schoolId: string }) {
  const { trpc } = Route.useRouteContext()
  const overview = useQuery(trpc.earnings.overview.queryOptions({ schoolId }))
  const monthly = useQuery(trpc.earnings.monthly.queryOptions({ schoolId }))
  if (overview.isPending || monthly.isPending) return <LoadingState label="Loading the school’s earnings…" />
  if (overview.isError || monthly.isError) return <ErrorState title="Could not load the school’s earnings" />
  return (
    <>
      <TitledSection id="balances-heading" title="Earnings" className={card}>
        <BalanceFigures
          balances={overview.data.balances}
          empty={<p>When someone buys one of the school’s courses, its share appears here.</p>}
        />
        <p>
          Payouts:{' '}
          {overview.data.payoutAccount.state === 'ready' ? 'set up' : 'not set up yet (the owner sets them up)'}
        </p>
      </TitledSection>
      <TitledSection id="statements-heading" title="Statements" className={card}>
        <StatementList months={monthly.data.statementMonths} schoolId={schoolId} />
      </TitledSection>
    </>
  )
}

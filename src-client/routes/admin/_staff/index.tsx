// Dashboard: real counts, orders and revenue of the last 30 days, and quick actions.
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { SalesPanel } from '#client/components/admin/SalesPanel.tsx'
import { errorText, pageHead, pageTitle, panel } from '#client/components/admin/styles.ts'
import { useStaff } from '#client/components/admin/use-staff.ts'
import { button } from '#client/components/ui/button.ts'
import { borderedCard } from '#client/components/ui/card.ts'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/')({
  head: () => ({ meta: [{ title: 'Dashboard | SkillForge Admin' }] }),
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.admin.dashboard.summary.queryOptions()),
  component: Dashboard,
})

const card = cx(borderedCard, css({ p: '5' }))

function Dashboard() {
  const { trpc } = Route.useRouteContext()
  const { data } = useSuspenseQuery(trpc.admin.dashboard.summary.queryOptions())
  const { can } = useStaff()
  const stats = [
    { label: 'Total Courses', value: data.counts.courses, note: `${data.counts.publishedCourses} published` },
    { label: 'Categories', value: data.counts.categories },
    { label: 'Team Members', value: data.counts.teamMembers },
    { label: 'Service orders overdue', value: data.counts.serviceOrdersOverdue, to: 'overdue' as const },
    { label: 'Awaiting brief', value: data.counts.serviceOrdersAwaitingBrief, to: 'brief_needed' as const },
  ]
  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Dashboard</h1>
      </div>
      <section
        aria-label="Totals"
        className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' }, gap: '4' })}
      >
        {stats.map((stat) => (
          <div key={stat.label} className={card}>
            <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{stat.label}</p>
            <p data-testid={`stat-${stat.label}`} className={css({ fontSize: '3xl', fontWeight: 'bold' })}>
              {stat.value}
            </p>
            {stat.note ? <p className={css({ color: 'fg.muted', fontSize: 'xs' })}>{stat.note}</p> : null}
            {'to' in stat ? (
              <Link
                to="/admin/service-orders"
                search={stat.to === 'overdue' ? { overdue: true } : { status: stat.to }}
                className={css({ color: 'accent', fontSize: 'xs' })}
              >
                Open the work queue
              </Link>
            ) : null}
          </div>
        ))}
      </section>
      <PremiumWebinar next={data.counts.nextPremiumWebinar} />
      <SalesPanel sales={data.sales} />
      <TitledSection
        id="quick-actions"
        title="Quick actions"
        className={`${panel} ${css({ mt: '6', p: '5' })}`}
        titleClassName={css({ fontWeight: 'semibold', mb: '3' })}
      >
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3' })}>
          <Link to="/admin/courses" className={button({ variant: 'outline' })}>
            Manage Courses
          </Link>
          <Link to="/admin/categories" className={button({ variant: 'outline' })}>
            Manage Categories
          </Link>
          <Link to="/admin/users" className={button({ variant: 'outline' })}>
            Manage Team
          </Link>
          {can('editor') ? (
            <Link to="/admin/courses" search={{ new: true }} className={button()}>
              Add Course
            </Link>
          ) : null}
          <a href="/" target="_blank" rel="noreferrer" className={button({ variant: 'ghost' })}>
            View public site
          </a>
        </div>
      </TitledSection>
    </>
  )
}

/** Premium promises a monthly live webinar: when the next is, or that none is scheduled and where to schedule one. */
function PremiumWebinar({ next }: { next: string | null }) {
  const soon = next !== null && new Date(next).getTime() - Date.now() <= WEBINAR_HORIZON_MS
  return (
    <section aria-label="Premium webinar" className={cx(card, css({ mt: '4' }))}>
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>Next Premium webinar</p>
      <p data-testid="next-premium-webinar" className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
        {next ? formatDate(next, 'mediumTime') : 'None scheduled'}
      </p>
      {soon ? null : (
        <p className={errorText}>Premium members are promised a live webinar every month: schedule the next one.</p>
      )}
      <Link to="/live/manage" className={css({ color: 'accent', fontSize: 'xs' })}>
        Schedule and manage live sessions
      </Link>
    </section>
  )
}

const WEBINAR_HORIZON_MS = 31 * 24 * 60 * 60 * 1000

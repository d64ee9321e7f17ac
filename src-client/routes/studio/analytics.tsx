// /studio/analytics: a creator's numbers for their own courses (the server picks the courses from the session):
// revenue per currency, units, and on Pro and Enterprise the channels, the course page's conversion, learners'
// progress and per-lesson reach and video drop-off. A date range, the previous period, tables and a CSV.
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { AnalyticsView, RangeForm } from '#client/components/analytics/AnalyticsView.tsx'
import { LessonsPanel, useCourseLessons } from '#client/components/analytics/LessonStats.tsx'
import { csvQuery, rangeOf, validateRangeSearch } from '#client/components/analytics/range-search.ts'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { panel as card } from '#client/components/ui/panel.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/analytics')({
  validateSearch: validateRangeSearch,
  loaderDeps: ({ search }) => rangeOf(search),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(context.trpc.analytics.creator.queryOptions(deps)),
  head: () => ({ meta: [{ title: 'Analytics | SkillForge Studio' }] }),
  pendingComponent: () => <LoadingState label="Loading your analytics…" />,
  errorComponent: routeError('Could not load your analytics'),
  component: StudioAnalytics,
})

function StudioAnalytics() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const range = rangeOf(search)
  const navigate = useNavigate({ from: Route.fullPath })
  const { data: report } = useSuspenseQuery(trpc.analytics.creator.queryOptions(range))
  return (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
      <PageIntro title="Analytics">
        Your courses' sales, refunds and learners. Days are UTC; today is counted live, earlier days are rolled up
        hourly.
        {report.full ? null : (
          <>
            {' '}
            Your plan shows revenue and students; <Link to="/pricing">Pro and Enterprise</Link> add channels, the course
            page's conversion, progress and lesson drop-off.
          </>
        )}
      </PageIntro>
      <RangeForm
        value={range}
        onChange={(next) => void navigate({ search: (previous) => ({ ...previous, ...next }) })}
      />
      <AnalyticsView
        report={report}
        csvHref={`/api/studio/analytics.csv?${csvQuery(range)}`}
        footer={report.full ? <CourseLessons courses={report.learners} selected={search.course} /> : null}
      />
    </main>
  )
}

function CourseLessons({
  courses,
  selected,
}: {
  courses: { courseId: string; title: string }[]
  selected: string | undefined
}) {
  const { trpc } = Route.useRouteContext()
  const navigate = useNavigate({ from: Route.fullPath })
  const { courseId, lessons } = useCourseLessons(courses, selected, (id) =>
    trpc.analytics.creatorLessons.queryOptions({ courseId: id }),
  )
  return (
    <LessonsPanel
      className={card}
      courses={courses}
      courseId={courseId}
      onCourse={(course) => void navigate({ search: (previous) => ({ ...previous, course }) })}
      lessons={lessons}
      noCourse={<p>Lesson reach shows once learners open your courses.</p>}
    />
  )
}

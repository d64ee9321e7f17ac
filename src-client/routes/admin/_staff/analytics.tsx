// /admin/analytics (viewer and up): the shop's sales per currency, channels, the course pages' conversion, learners
// per course, plans, services and creators, and one course's lessons, with a date range, the previous period, tables and a CSV.
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { pageHead, pageTitle, panel } from '#client/components/admin/styles.ts'
import { AnalyticsView, RangeForm } from '#client/components/analytics/AnalyticsView.tsx'
import { LessonsPanel, useCourseLessons } from '#client/components/analytics/LessonStats.tsx'
import { csvQuery, rangeOf, validateRangeSearch } from '#client/components/analytics/range-search.ts'
import { StaffPanels } from '#client/components/analytics/StaffPanels.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/analytics')({
  validateSearch: validateRangeSearch,
  loaderDeps: ({ search }) => rangeOf(search),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(context.trpc.analytics.shop.queryOptions(deps)),
  head: () => ({ meta: [{ title: 'Analytics | SkillForge Admin' }] }),
  pendingComponent: () => <LoadingState label="Loading analytics…" />,
  errorComponent: routeError('Could not load analytics'),
  component: AdminAnalytics,
})

function AdminAnalytics() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const range = rangeOf(search)
  const navigate = useNavigate({ from: Route.fullPath })
  const { data: report } = useSuspenseQuery(trpc.analytics.shop.queryOptions(range))
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
      <div className={pageHead}>
        <h1 className={pageTitle}>Analytics</h1>
      </div>
      <p>Every course in the shop. Days are UTC; today is counted live, earlier days are rolled up hourly.</p>
      <RangeForm
        value={range}
        onChange={(next) => void navigate({ search: (previous) => ({ ...previous, ...next }) })}
      />
      <AnalyticsView
        report={report}
        csvHref={`/api/admin/analytics.csv?${csvQuery(range)}`}
        footer={
          <>
            <StaffPanels staff={report.staff} />
            <ShopLessons courses={report.learners} selected={search.course} />
          </>
        }
      />
    </div>
  )
}

function ShopLessons({ courses, selected }: { courses: { courseId: string; title: string }[]; selected?: string }) {
  const { trpc } = Route.useRouteContext()
  const navigate = useNavigate({ from: Route.fullPath })
  const { courseId, lessons } = useCourseLessons(courses, selected, (id) =>
    trpc.analytics.shopLessons.queryOptions({ courseId: id }),
  )
  return (
    <LessonsPanel
      className={panel}
      courses={courses}
      courseId={courseId}
      onCourse={(course) => void navigate({ search: (previous) => ({ ...previous, course }) })}
      lessons={lessons}
    />
  )
}

// One course in the studio: its title and state above a tab row (Details, Curriculum, Publish) and a preview link.
// A course the creator may not edit is answered as not found by the server, and shown so here.
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, Outlet } from '@tanstack/react-router'
import { MainAround, OwnMain } from '#client/components/layout/MainLandmark.tsx'
import { CourseTabs } from '#client/components/studio/CourseTabs.tsx'
import { StateBadge } from '#client/components/studio/StateBadge.tsx'
import { button } from '#client/components/ui/button.ts'
import { RouteError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, LoadingState } from '#client/components/ui/states.tsx'
import { errorCode } from '#client/lib/errors.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/courses/$courseId')({
  loader: ({ context: { queryClient, trpc }, params }) =>
    queryClient.ensureQueryData(trpc.studio.course.queryOptions({ courseId: params.courseId })),
  head: () => ({ meta: [{ title: 'Edit course | Studio | SkillForge' }] }),
  pendingComponent: () => <LoadingState label="Loading the course…" />,
  errorComponent: ({ error }) =>
    errorCode(error) === 'NOT_FOUND' ? (
      <OwnMain>
        <CourseNotFound />
      </OwnMain>
    ) : (
      <RouteError error={error} title="Could not load the course" />
    ),
  component: StudioCourse,
})

function CourseNotFound() {
  return (
    <EmptyState title="Course not found">
      <p className={css({ mb: '4' })}>It may have been deleted, or it is not one of your courses.</p>
      <Link to="/studio" className={button()}>
        Back to my courses
      </Link>
    </EmptyState>
  )
}

function StudioCourse() {
  const { trpc } = Route.useRouteContext()
  const { courseId } = Route.useParams()
  const course = useQuery(trpc.studio.course.queryOptions({ courseId }))
  if (!course.data) return <LoadingState label="Loading the course…" />
  return (
    <MainAround className={css({ display: 'flex', flexDir: 'column', gap: '5', minW: 0 })}>
      <div className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
        <Link to="/studio" className={css({ fontSize: 'sm', color: 'fg.muted', textDecoration: 'underline' })}>
          ← My courses
        </Link>
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'center' })}>
          <h1 className={css({ fontSize: { base: 'xl', md: '2xl' }, fontWeight: 'bold', overflowWrap: 'anywhere' })}>
            {course.data.title}
          </h1>
          <StateBadge status={course.data.status} testId="course-status" />
        </div>
      </div>
      <CourseTabs courseId={courseId} />
      <Outlet />
    </MainAround>
  )
}

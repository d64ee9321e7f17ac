// A course's details in the studio (the Details tab).
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { CourseDetailsForm } from '#client/components/studio/CourseDetailsForm.tsx'
import { OfflineSetting } from '#client/components/studio/OfflineSetting.tsx'
import { PremiumInclusion } from '#client/components/studio/PremiumInclusion.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'

export const Route = createFileRoute('/studio/courses/$courseId/')({
  loader: ({ context: { queryClient, trpc } }) => queryClient.prefetchQuery(trpc.studio.categories.queryOptions()),
  head: () => ({ meta: [{ title: 'Course details | Studio | SkillForge' }] }),
  component: CourseDetails,
})

function CourseDetails() {
  const { trpc } = Route.useRouteContext()
  const { courseId } = Route.useParams()
  const course = useQuery(trpc.studio.course.queryOptions({ courseId }))
  const categories = useQuery(trpc.studio.categories.queryOptions())
  if (course.isPending || categories.isPending) return <LoadingState label="Loading the course details…" />
  if (course.isError || categories.isError) {
    const failed = course.isError ? course : categories
    return (
      <ErrorState title="Could not load the course details" error={failed.error} onRetry={() => failed.refetch()} />
    )
  }
  return (
    <>
      <CourseDetailsForm key={course.data.id} course={course.data} categories={categories.data} />
      <PremiumInclusion courseId={course.data.id} />
      <OfflineSetting courseId={course.data.id} />
    </>
  )
}

// A course's curriculum in the studio (the Curriculum tab): the builder over the course's sections and lessons.
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { CurriculumBuilder } from '#client/components/studio/CurriculumBuilder.tsx'
import { QuestionDigestSwitch } from '#client/components/studio/QuestionDigestSwitch.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'

export const Route = createFileRoute('/studio/courses/$courseId/curriculum')({
  head: () => ({ meta: [{ title: 'Curriculum | Studio | SkillForge' }] }),
  component: Curriculum,
})

function Curriculum() {
  const { trpc } = Route.useRouteContext()
  const { courseId } = Route.useParams()
  const course = useQuery(trpc.studio.course.queryOptions({ courseId }))
  if (course.isPending) return <LoadingState label="Loading the curriculum…" />
  if (course.isError) {
    return <ErrorState title="Could not load the curriculum" error={course.error} onRetry={() => course.refetch()} />
  }
  return (
    <>
      <CurriculumBuilder course={course.data} />
      <QuestionDigestSwitch courseId={courseId} />
    </>
  )
}

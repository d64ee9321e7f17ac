// The player: the lesson, the course's curriculum with checks and locks, Previous/Next, Mark as complete and the
// course progress. Its code is split from the rest of the app by the router (autoCodeSplitting), so none of it is
// in the home page's bundle.
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { NotFound } from '#client/components/layout/NotFound.tsx'
import { Player } from '#client/components/learning/Player.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { notFoundIfMissing } from '#client/lib/errors.ts'

export const Route = createFileRoute('/learn/$courseId/$lessonId')({
  loader: async ({ context, params }) => {
    const { queryClient, trpc } = context
    try {
      const [course, lesson] = await Promise.all([
        queryClient.ensureQueryData(trpc.learning.course.queryOptions({ courseId: params.courseId })),
        queryClient.ensureQueryData(trpc.learning.lesson.queryOptions(params)),
      ])
      return { title: `${lesson.title} | ${course.course.title}` }
    } catch (error) {
      notFoundIfMissing(error)
    }
  },
  head: ({ loaderData }) => ({ meta: [{ title: `${loaderData?.title ?? 'Lesson'} | SkillForge` }] }),
  pendingComponent: () => <LoadingState label="Loading lesson…" />,
  notFoundComponent: NotFound,
  component: LessonPage,
})

function LessonPage() {
  const params = Route.useParams()
  const { trpc } = Route.useRouteContext()
  const { data: course } = useSuspenseQuery(trpc.learning.course.queryOptions({ courseId: params.courseId }))
  const { data: lesson } = useSuspenseQuery(trpc.learning.lesson.queryOptions(params))
  return <Player course={course} lesson={lesson} />
}

// /learn/{courseId}: straight on to the lesson to resume (the server picks it: the last one worked on, else the
// next unfinished one).
import { createFileRoute, notFound, redirect } from '@tanstack/react-router'
import { NotFound } from '#client/components/layout/NotFound.tsx'
import { EmptyState, LoadingState } from '#client/components/ui/states.tsx'
import { errorCode } from '#client/lib/errors.ts'

export const Route = createFileRoute('/learn/$courseId/')({
  loader: async ({ context, params }) => {
    const course = await context.queryClient
      .ensureQueryData(context.trpc.learning.course.queryOptions({ courseId: params.courseId }))
      .catch((error: unknown) => {
        if (errorCode(error) === 'NOT_FOUND') throw notFound()
        throw error
      })
    if (course.resumeLessonId) {
      throw redirect({
        to: '/learn/$courseId/$lessonId',
        params: { courseId: params.courseId, lessonId: course.resumeLessonId },
        replace: true,
      })
    }
    return { title: course.course.title }
  },
  head: ({ loaderData }) => ({ meta: [{ title: `${loaderData?.title ?? 'Course'} | SkillForge` }] }),
  pendingComponent: () => <LoadingState label="Loading course…" />,
  notFoundComponent: NotFound,
  component: () => (
    <main>
      <EmptyState title="This course has no lessons yet" />
    </main>
  ),
})

import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, notFound } from '@tanstack/react-router'
import { formatMoney } from '../../../src-shared/money.ts'
import { NotFound } from '../../components/layout/NotFound.tsx'
import { PageIntro } from '../../components/layout/PageIntro.tsx'

export const Route = createFileRoute('/courses/$courseId')({
  loader: async ({ context, params }) => {
    const course = await context.queryClient.ensureQueryData(
      context.trpc.catalog.course.queryOptions({ id: params.courseId }),
    )
    if (!course) throw notFound()
    return { title: course.title }
  },
  head: ({ loaderData }) => ({
    meta: [{ title: loaderData ? `${loaderData.title} | SkillForge` : 'Course | SkillForge' }],
  }),
  notFoundComponent: NotFound,
  component: CoursePage,
})

function CoursePage() {
  const { courseId } = Route.useParams()
  const { trpc } = Route.useRouteContext()
  const { data: course } = useSuspenseQuery(trpc.catalog.course.queryOptions({ id: courseId }))
  if (!course) return <NotFound />
  return (
    <main>
      <PageIntro title={course.title}>
        <p>{course.description}</p>
        <p>{formatMoney(course.priceMinor, course.currency)}</p>
      </PageIntro>
    </main>
  )
}

import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { css } from '../../styled-system/css'
import { CourseCard } from '../components/course/CourseCard.tsx'
import { button } from '../components/ui/button.ts'
import { Container, Section } from '../components/ui/layout.tsx'
import { EmptyState, ErrorState, LoadingState } from '../components/ui/states.tsx'

export const Route = createFileRoute('/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.catalog.featuredCourses.queryOptions()),
  pendingComponent: () => <LoadingState />,
  component: HomePage,
})

function HomePage() {
  return (
    <main>
      <Hero />
      <FeaturedCourses />
    </main>
  )
}

function Hero() {
  return (
    <section
      className={css({ bgGradient: 'to-br', gradientFrom: 'brand.900', gradientTo: 'brand.600', color: 'white' })}
    >
      <Container className={css({ py: { base: '16', md: '24' } })}>
        <h1
          className={css({
            fontSize: { base: '3xl', md: '5xl' },
            fontWeight: 'extrabold',
            maxW: '3xl',
            lineHeight: 'tight',
          })}
        >
          Learn new skills, launch your business, and share what you know
        </h1>
        <p className={css({ mt: '4', fontSize: 'lg', maxW: '2xl', color: 'brand.100' })}>
          Courses from working experts, company formation and consultancy services, and plans for creators who want to
          teach and sell online.
        </p>
        <div className={css({ mt: '8', display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          <Link to="/signup" className={button({ variant: 'light', size: 'lg' })}>
            Get Started For Free
          </Link>
          <Link to="/courses" className={button({ variant: 'outline', size: 'lg' })}>
            Browse Courses
          </Link>
        </div>
      </Container>
    </section>
  )
}

function FeaturedCourses() {
  const { trpc } = Route.useRouteContext()
  const query = useQuery(trpc.catalog.featuredCourses.queryOptions())
  return (
    <Section title="Featured Courses" id="featured-courses">
      {query.isPending ? (
        <LoadingState label="Loading courses…" />
      ) : query.isError ? (
        <ErrorState title="Failed to load courses" error={query.error} onRetry={() => query.refetch()} />
      ) : query.data.length === 0 ? (
        <EmptyState title="No courses available at the moment. Check back soon!">
          <Link to="/courses" className={`${button()} ${css({ mt: '4' })}`}>
            Browse All Courses
          </Link>
        </EmptyState>
      ) : (
        <>
          <div
            className={css({ display: 'grid', gap: '6', gridTemplateColumns: 'repeat(auto-fill, minmax(250px, 1fr))' })}
          >
            {query.data.map((course) => (
              <CourseCard key={course.id} course={course} />
            ))}
          </div>
          <div className={css({ textAlign: 'center', mt: '8' })}>
            <Link to="/courses" className={button({ variant: 'outline' })}>
              View All Courses
            </Link>
          </div>
        </>
      )}
    </Section>
  )
}

// Home sections read from the database: the statistics, featured courses, featured services, categories, testimonials.
import { type UseQueryResult, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import type { Trpc } from '#client/lib/trpc.ts'
import { headlineMoney } from '#shared/money.ts'
import { headlineCount } from '#shared/numbers.ts'
import { css, cx } from '#styled-system/css'
import { CourseCartButton } from '../cart/CourseCartButton.tsx'
import { CourseCard } from '../course/CourseCard.tsx'
import { ServiceCardGrid } from '../service/ServiceCardGrid.tsx'
import { button } from '../ui/button.ts'
import { raisedCard } from '../ui/card.ts'
import { Icon, isIconName } from '../ui/icons.tsx'
import { Container, Section } from '../ui/layout.tsx'
import { SafeImage } from '../ui/SafeImage.tsx'
import { EmptyState, ErrorState, LoadingState } from '../ui/states.tsx'

const grid = css({ display: 'grid', gap: '6', gridTemplateColumns: 'repeat(auto-fill, minmax(250px, 1fr))' })
const centre = css({ textAlign: 'center', mt: '8' })

/** The slugs the spec's home category cards show, in its order. */
export const HOME_CATEGORY_SLUGS = ['development', 'business', 'company-formation', 'consultancy']

/** A home section over one query: "Loading {noun}…", then "Failed to load {noun}" with Try Again, then `children`. */
function QuerySection<Data>({
  title,
  id,
  query,
  noun,
  children,
}: {
  title: string
  id: string
  query: UseQueryResult<Data, unknown>
  noun: string
  children: (data: Data) => ReactNode
}) {
  return (
    <Section title={title} id={id}>
      {query.isPending ? (
        <LoadingState label={`Loading ${noun}…`} />
      ) : query.isError ? (
        <ErrorState title={`Failed to load ${noun}`} error={query.error} onRetry={() => query.refetch()} />
      ) : (
        children(query.data)
      )}
    </Section>
  )
}

/** The link under a section's cards to the whole list. */
function ViewAll({ to, children }: { to: '/courses' | '/services'; children: ReactNode }) {
  return (
    <div className={centre}>
      <Link to={to} className={button({ variant: 'outline' })}>
        {children}
      </Link>
    </div>
  )
}

/**
 * The statistics band: learners holding a course, instructors teaching one and what creators have earned, as the
 * server counts them. A figure still at nothing is left out rather than shown as a zero.
 */
export function StatsBand({ trpc }: { trpc: Trpc }) {
  const query = useQuery(trpc.catalog.stats.queryOptions())
  const stats = query.data
    ? [
        { value: query.data.activeStudents ? headlineCount(query.data.activeStudents) : '', label: 'Active Students' },
        { value: query.data.courseCreators ? headlineCount(query.data.courseCreators) : '', label: 'Course Creators' },
        {
          value: query.data.creatorEarnings
            .filter((total) => total.amountMinor >= 100)
            .map((total) => headlineMoney(total.amountMinor, total.currency))
            .join(' · '),
          label: 'Creator Earnings',
        },
      ].filter((stat) => stat.value)
    : []
  if (query.isSuccess && stats.length === 0) return null
  return (
    <section aria-label="Statistics" className={css({ bg: 'surface', borderBottomWidth: '1px', borderColor: 'line' })}>
      <Container
        className={css({
          py: '10',
          display: 'grid',
          gap: '6',
          gridTemplateColumns: { base: '1fr', md: 'repeat(auto-fit, minmax(12rem, 1fr))' },
          textAlign: 'center',
        })}
      >
        {query.isPending ? (
          <LoadingState label="Loading statistics…" />
        ) : query.isError ? (
          <ErrorState title="Failed to load statistics" error={query.error} onRetry={() => query.refetch()} />
        ) : (
          stats.map((stat) => (
            <div key={stat.label} data-testid="statistic">
              <p className={css({ fontSize: '4xl', fontWeight: 'extrabold', color: 'accent' })}>{stat.value}</p>
              <p className={css({ color: 'fg.muted' })}>{stat.label}</p>
            </div>
          ))
        )}
      </Container>
    </section>
  )
}

export function FeaturedCourses({ trpc }: { trpc: Trpc }) {
  const query = useQuery(trpc.catalog.featuredCourses.queryOptions())
  return (
    <QuerySection title="Featured Courses" id="featured-courses" query={query} noun="courses">
      {(courses) =>
        courses.length === 0 ? (
          <EmptyState title="No courses available at the moment. Check back soon!">
            <Link to="/courses" className={`${button()} ${css({ mt: '4' })}`}>
              Browse All Courses
            </Link>
          </EmptyState>
        ) : (
          <>
            <div className={grid}>
              {courses.map((course) => (
                <CourseCard
                  key={course.id}
                  course={course}
                  preview
                  cartAction={<CourseCartButton courseId={course.id} priceMinor={course.priceMinor} size="sm" />}
                  previewCartAction={<CourseCartButton courseId={course.id} priceMinor={course.priceMinor} />}
                />
              ))}
            </div>
            <ViewAll to="/courses">View All Courses</ViewAll>
          </>
        )
      }
    </QuerySection>
  )
}

/** Hidden when no service is featured (spec §2). */
export function FeaturedServices({ trpc }: { trpc: Trpc }) {
  const query = useQuery(trpc.services.featured.queryOptions())
  if (query.isSuccess && query.data.length === 0) return null
  return (
    <QuerySection title="Featured Services" id="featured-services" query={query} noun="services">
      {(services) => (
        <>
          <ServiceCardGrid services={services} className={grid} />
          <ViewAll to="/services">View All Services</ViewAll>
        </>
      )}
    </QuerySection>
  )
}

export function CategoryCards({ trpc }: { trpc: Trpc }) {
  const query = useQuery(trpc.catalog.categories.queryOptions())
  return (
    <QuerySection title="Browse Categories" id="categories" query={query} noun="categories">
      {(categories) => (
        <ul
          className={css({
            display: 'grid',
            gap: '4',
            gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
          })}
        >
          {HOME_CATEGORY_SLUGS.flatMap((slug) => categories.filter((c) => c.slug === slug)).map((category) => (
            <li key={category.slug}>
              <Link
                to="/courses/category/$slug"
                params={{ slug: category.slug }}
                data-testid="category-card"
                className={cx(
                  raisedCard,
                  css({
                    display: 'flex',
                    gap: '3',
                    alignItems: 'center',
                    p: '5',
                    _hover: { color: 'accent' },
                  }),
                )}
              >
                <span className={css({ color: 'accent', bg: 'brand.50', p: '3', borderRadius: 'full' })}>
                  <Icon name={isIconName(category.icon) ? category.icon : 'book'} />
                </span>
                <span>
                  <span className={css({ display: 'block', fontWeight: 'semibold' })}>{category.name}</span>
                  <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                    {category.count} {category.count === 1 ? 'course' : 'courses'}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </QuerySection>
  )
}

export function Testimonials({ trpc }: { trpc: Trpc }) {
  const query = useQuery(trpc.content.testimonials.queryOptions())
  if (query.isSuccess && query.data.length === 0) return null
  return (
    <QuerySection title="What Our Creators Say" id="testimonials" query={query} noun="testimonials">
      {(testimonials) => (
        <div className={css({ display: 'grid', gap: '6', gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' } })}>
          {testimonials.map((t) => (
            <figure
              key={t.id}
              className={cx(raisedCard, css({ p: '6', display: 'flex', flexDir: 'column', gap: '4' }))}
            >
              <blockquote className={css({ color: 'fg.muted', flex: 1 })}>“{t.content}”</blockquote>
              <figcaption className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
                <SafeImage
                  src={t.image}
                  alt={t.author}
                  width={48}
                  height={48}
                  className={css({ borderRadius: 'full', w: '12', h: '12' })}
                />
                <span>
                  <span className={css({ display: 'block', fontWeight: 'semibold' })}>{t.author}</span>
                  <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t.role}</span>
                </span>
              </figcaption>
            </figure>
          ))}
        </div>
      )}
    </QuerySection>
  )
}

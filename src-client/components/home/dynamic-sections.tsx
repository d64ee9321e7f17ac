// Home sections read from the database: featured courses, featured services, categories, testimonials.
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { Trpc } from '#client/lib/trpc.ts'
import { css, cx } from '#styled-system/css'
import { CourseCartButton } from '../cart/CourseCartButton.tsx'
import { ServiceCardCartButton } from '../cart/ServicePackageCartButton.tsx'
import { CourseCard } from '../course/CourseCard.tsx'
import { ServiceCard } from '../service/ServiceCard.tsx'
import { button } from '../ui/button.ts'
import { raisedCard } from '../ui/card.ts'
import { Icon, isIconName } from '../ui/icons.tsx'
import { Section } from '../ui/layout.tsx'
import { SafeImage } from '../ui/SafeImage.tsx'
import { EmptyState, ErrorState, LoadingState } from '../ui/states.tsx'

const grid = css({ display: 'grid', gap: '6', gridTemplateColumns: 'repeat(auto-fill, minmax(250px, 1fr))' })
const centre = css({ textAlign: 'center', mt: '8' })

/** The slugs the spec's home category cards show, in its order. */
export const HOME_CATEGORY_SLUGS = ['development', 'business', 'company-formation', 'consultancy']

export function FeaturedCourses({ trpc }: { trpc: Trpc }) {
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
          <div className={grid}>
            {query.data.map((course) => (
              <CourseCard
                key={course.id}
                course={course}
                preview
                cartAction={<CourseCartButton courseId={course.id} priceMinor={course.priceMinor} size="sm" />}
                previewCartAction={<CourseCartButton courseId={course.id} priceMinor={course.priceMinor} />}
              />
            ))}
          </div>
          <div className={centre}>
            <Link to="/courses" className={button({ variant: 'outline' })}>
              View All Courses
            </Link>
          </div>
        </>
      )}
    </Section>
  )
}

/** Hidden when no service is featured (spec §2). */
export function FeaturedServices({ trpc }: { trpc: Trpc }) {
  const query = useQuery(trpc.services.featured.queryOptions())
  if (query.isSuccess && query.data.length === 0) return null
  return (
    <Section title="Featured Services" id="featured-services">
      {query.isPending ? (
        <LoadingState label="Loading services…" />
      ) : query.isError ? (
        <ErrorState title="Failed to load services" error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <>
          <div className={grid}>
            {query.data.map((service) => (
              <ServiceCard
                key={service.id}
                service={service}
                cartAction={<ServiceCardCartButton serviceId={service.id} />}
              />
            ))}
          </div>
          <div className={centre}>
            <Link to="/services" className={button({ variant: 'outline' })}>
              View All Services
            </Link>
          </div>
        </>
      )}
    </Section>
  )
}

export function CategoryCards({ trpc }: { trpc: Trpc }) {
  const query = useQuery(trpc.catalog.categories.queryOptions())
  return (
    <Section title="Browse Categories" id="categories">
      {query.isPending ? (
        <LoadingState label="Loading categories…" />
      ) : query.isError ? (
        <ErrorState title="Failed to load categories" error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <ul
          className={css({
            display: 'grid',
            gap: '4',
            gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
          })}
        >
          {HOME_CATEGORY_SLUGS.flatMap((slug) => query.data.filter((c) => c.slug === slug)).map((category) => (
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
    </Section>
  )
}

export function Testimonials({ trpc }: { trpc: Trpc }) {
  const query = useQuery(trpc.content.testimonials.queryOptions())
  if (query.isSuccess && query.data.length === 0) return null
  return (
    <Section title="What Our Creators Say" id="testimonials">
      {query.isPending ? (
        <LoadingState label="Loading testimonials…" />
      ) : query.isError ? (
        <ErrorState title="Failed to load testimonials" error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <div className={css({ display: 'grid', gap: '6', gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' } })}>
          {query.data.map((t) => (
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
    </Section>
  )
}

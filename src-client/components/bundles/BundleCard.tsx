// A bundle as a card (the catalogue, a course page): its courses, its price against their total and the saving the
// server computed ("Save 33 %"). The bundle page is one click away.
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { countOf } from '#client/lib/format.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatMoney } from '#shared/money.ts'
import { css, cx } from '#styled-system/css'
import { raisedCard } from '../ui/card.ts'
import { Container, contentHeading } from '../ui/layout.tsx'

export type PublicBundle = RouterOutputs['bundles']['published'][number]

export function BundleCard({ bundle }: { bundle: PublicBundle }) {
  return (
    <article
      data-testid="bundle-card"
      className={cx(
        raisedCard,
        css({
          p: '5',
          display: 'flex',
          flexDir: 'column',
          gap: '2',
          borderTopWidth: '4px',
          borderColor: 'brand.600',
        }),
      )}
    >
      <p className={css({ fontSize: 'xs', fontWeight: 'semibold', color: 'accent', textTransform: 'uppercase' })}>
        Bundle · {countOf(bundle.courses.length, 'course')}
      </p>
      <h3 className={css({ fontWeight: 'semibold', lineHeight: 'snug' })}>
        <Link
          to="/bundles/$slug"
          params={{ slug: bundle.slug }}
          className={css({ textDecoration: 'underline', _hover: { color: 'accent' } })}
        >
          {bundle.title}
        </Link>
      </h3>
      <ul className={css({ fontSize: 'sm', color: 'fg.muted', listStyle: 'disc', pl: '5' })}>
        {bundle.courses.map((course) => (
          <li key={course.id}>{course.title}</li>
        ))}
      </ul>
      <p className={css({ mt: 'auto', display: 'flex', gap: '2', alignItems: 'baseline', flexWrap: 'wrap' })}>
        <span className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
          {formatMoney(bundle.price_minor, bundle.currency)}
        </span>
        <s className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          <span className={css({ srOnly: true })}>instead of </span>
          {formatMoney(bundle.listTotalMinor, bundle.currency)}
        </s>
        {bundle.savingPercent > 0 ? (
          <span
            data-testid="bundle-saving"
            className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'success' })}
          >
            Save {bundle.savingPercent} %
          </span>
        ) : null}
      </p>
    </article>
  )
}

const grid = css({ display: 'grid', gap: '6', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' })

/** The catalogue's bundles: nothing at all when none is on sale (or while they load). */
export function BundleShelf() {
  const trpc = useTRPC()
  const query = useQuery(trpc.bundles.published.queryOptions())
  if (!query.data || query.data.length === 0) return null
  return (
    <Container className={css({ pt: '10' })}>
      <BundleSection
        id="bundles-heading"
        title="Bundles"
        headingClass={css({ fontSize: '2xl', fontWeight: 'bold', mb: '4' })}
        bundles={query.data}
      />
    </Container>
  )
}

/** A course page's bundles that include it ("Save 33 %"): nothing when there are none. */
export function CourseBundles({ courseId, className }: { courseId: string; className?: string }) {
  const trpc = useTRPC()
  const query = useQuery(trpc.bundles.forCourse.queryOptions({ courseId }))
  if (!query.data || query.data.length === 0) return null
  return (
    <BundleSection
      id="course-bundles"
      title="Save with a bundle"
      headingClass={contentHeading}
      bundles={query.data}
      className={className}
    />
  )
}

/** A titled grid of bundle cards (its heading names the section). */
function BundleSection({
  id,
  title,
  headingClass,
  bundles,
  className,
}: {
  id: string
  title: string
  headingClass: string
  bundles: readonly PublicBundle[]
  className?: string
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className={headingClass}>
        {title}
      </h2>
      <div className={grid}>
        {bundles.map((bundle) => (
          <BundleCard key={bundle.id} bundle={bundle} />
        ))}
      </div>
    </section>
  )
}

// /bundles/{slug}: a bundle's courses, its price against their total, the saving, and one Add to Cart. A buyer who
// already holds some of the courses is told here (and again in the cart and at checkout) before paying; one who holds
// them all is told so, with no buy button (the server would refuse the bundle).
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, notFound } from '@tanstack/react-router'
import { BundleCartButton } from '#client/components/bundles/BundleCartButton.tsx'
import { BundleOverlap } from '#client/components/bundles/BundleOverlap.tsx'
import { useEntitlements } from '#client/components/cart/hooks.ts'
import { DarkHero } from '#client/components/layout/bands.tsx'
import { NotFound } from '#client/components/layout/NotFound.tsx'
import { raisedCard } from '#client/components/ui/card.ts'
import { Container, contentHeading, TitledSection, withAside } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { SafeImage } from '#client/components/ui/SafeImage.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { seo } from '#client/lib/seo.ts'
import { formatMoney } from '#shared/money.ts'
import { css, cx } from '#styled-system/css'

export const Route = createFileRoute('/bundles/$slug')({
  loader: async ({ context, params }) => {
    const bundle = await context.queryClient.ensureQueryData(
      context.trpc.bundles.bySlug.queryOptions({ slug: params.slug }),
    )
    if (!bundle) throw notFound()
    return { title: bundle.title, description: bundle.description }
  },
  head: ({ loaderData }) =>
    loaderData
      ? seo({ title: loaderData.title, description: loaderData.description || `${loaderData.title}: a course bundle.` })
      : seo({ title: 'Bundle not found', description: "We couldn't find that bundle." }),
  pendingComponent: () => <LoadingState label="Loading the bundle…" />,
  errorComponent: routeError('Could not load this bundle'),
  notFoundComponent: NotFound,
  component: BundlePage,
})

function BundlePage() {
  const { slug } = Route.useParams()
  const { trpc } = Route.useRouteContext()
  const { data: bundle } = useSuspenseQuery(trpc.bundles.bySlug.queryOptions({ slug }))
  const entitlements = useEntitlements()
  if (!bundle) return <NotFound />
  const owned = new Set(entitlements.data?.courseIds ?? [])
  const held = bundle.courses.filter((course) => owned.has(course.id)).map((course) => course.title)
  // The server refuses such a bundle (409): no buy button, and the reason instead (the cart's rule: cart/repository.ts).
  const ownsAll = bundle.courses.length > 0 && held.length === bundle.courses.length
  return (
    <main>
      <DarkHero className={css({ display: 'grid', gap: '3' })}>
        <p className={css({ fontSize: 'sm', textTransform: 'uppercase', letterSpacing: 'wide' })}>
          Bundle · {bundle.courses.length} courses
        </p>
        <h1 className={css({ fontSize: { base: '2xl', md: '4xl' }, fontWeight: 'extrabold', lineHeight: 'tight' })}>
          {bundle.title}
        </h1>
        {bundle.description ? <p className={css({ color: 'gray.300', maxW: '3xl' })}>{bundle.description}</p> : null}
      </DarkHero>
      <Container className={css({ py: '10' })}>
        <div className={withAside}>
          <TitledSection id="bundle-courses" title="What's included" titleClassName={contentHeading}>
            <ul className={css({ display: 'grid', gap: '4' })}>
              {bundle.courses.map((course) => (
                <li
                  key={course.id}
                  data-testid="bundle-course"
                  className={cx(raisedCard, css({ display: 'flex', gap: '4', alignItems: 'center', p: '4' }))}
                >
                  <SafeImage
                    src={course.imageUrl ?? '/placeholder.svg'}
                    alt=""
                    width={96}
                    height={54}
                    className={css({ w: '24', aspectRatio: '16/9', objectFit: 'cover', borderRadius: 'control' })}
                  />
                  <div className={css({ flex: 1, minW: 0 })}>
                    <Link
                      to="/courses/$courseId"
                      params={{ courseId: course.id }}
                      className={css({ fontWeight: 'semibold', textDecoration: 'underline', overflowWrap: 'anywhere' })}
                    >
                      {course.title}
                    </Link>
                    <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{course.instructorName}</p>
                  </div>
                  <span className={css({ fontSize: 'sm', whiteSpace: 'nowrap' })}>
                    {formatMoney(course.priceMinor, bundle.currency)}
                  </span>
                </li>
              ))}
            </ul>
          </TitledSection>
          <aside aria-label="Buy this bundle" className={cx(raisedCard, css({ p: '6', display: 'grid', gap: '3' }))}>
            <p className={css({ display: 'flex', gap: '3', alignItems: 'baseline', flexWrap: 'wrap' })}>
              <span data-testid="bundle-price" className={css({ fontSize: '3xl', fontWeight: 'extrabold' })}>
                {formatMoney(bundle.price_minor, bundle.currency)}
              </span>
              <s className={css({ color: 'fg.muted' })}>
                <span className={css({ srOnly: true })}>instead of </span>
                {formatMoney(bundle.listTotalMinor, bundle.currency)}
              </s>
            </p>
            {bundle.savingPercent > 0 ? (
              <p data-testid="bundle-saving" className={css({ fontWeight: 'semibold', color: 'success' })}>
                Save {bundle.savingPercent} % on the courses bought one by one
              </p>
            ) : null}
            {ownsAll ? (
              <p data-testid="bundle-owned">
                <strong>You own every course in this bundle.</strong>{' '}
                <Link to="/account" hash="my-courses" className={css({ textDecoration: 'underline' })}>
                  Find them in My Courses
                </Link>
              </p>
            ) : (
              <>
                <BundleOverlap overlap={{ held, inCart: [] }} />
                <BundleCartButton bundleId={bundle.id} className={css({ w: 'full' })} />
              </>
            )}
          </aside>
        </div>
      </Container>
    </main>
  )
}

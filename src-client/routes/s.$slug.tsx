// /s/{slug}: a creator's school (decision 0057) — its published courses, bundles and instructors, rendered on the
// server like every public page; an unknown slug is the not-found page (404 from flows/page-status.ts).
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, notFound } from '@tanstack/react-router'
import { CourseCard } from '#client/components/course/CourseCard.tsx'
import { DarkHero } from '#client/components/layout/bands.tsx'
import { NotFound } from '#client/components/layout/NotFound.tsx'
import { borderedCard } from '#client/components/ui/card.ts'
import { Container, contentHeading, TitledSection } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { ProfilePhoto } from '#client/components/ui/SafeImage.tsx'
import { EmptyState } from '#client/components/ui/states.tsx'
import { brandQuery } from '#client/lib/brand.ts'
import { SITE_NAME, seo } from '#client/lib/seo.ts'
import { useSite } from '#client/lib/site.ts'
import { formatMoney } from '#shared/money.ts'
import { css, cx } from '#styled-system/css'

export const Route = createFileRoute('/s/$slug')({
  loader: async ({ context, params, location }) => {
    const [page, brand] = await Promise.all([
      context.queryClient.ensureQueryData(context.trpc.schools.page.queryOptions({ slug: params.slug })),
      context.queryClient.ensureQueryData(brandQuery(context.trpc, location.pathname)).catch(() => null),
      context.queryClient.ensureQueryData(context.trpc.schoolSso.forSchool.queryOptions({ slug: params.slug })),
    ])
    if (!page) throw notFound()
    // A white-labelled school's page names the school, not SkillForge (decision 0063).
    return { name: page.name, siteName: brand?.displayName ?? SITE_NAME }
  },
  head: ({ loaderData }) =>
    seo({
      title: loaderData?.name ?? 'Not found',
      description: `${loaderData?.name}: courses, bundles and instructors on ${loaderData?.siteName ?? SITE_NAME}`,
      siteName: loaderData?.siteName,
    }),
  errorComponent: routeError('Could not load this school'),
  notFoundComponent: NotFound,
  component: SchoolPage,
})

const grid = css({
  display: 'grid',
  gap: '6',
  gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
})

function SchoolPage() {
  const { slug } = Route.useParams()
  const { trpc } = Route.useRouteContext()
  const { data: page } = useSuspenseQuery(trpc.schools.page.queryOptions({ slug }))
  const { data: sso } = useSuspenseQuery(trpc.schoolSso.forSchool.queryOptions({ slug }))
  const site = useSite()
  if (!page) return <NotFound />
  return (
    <main>
      <DarkHero>
        <h1 className={css({ fontSize: { base: '2xl', md: '4xl' }, fontWeight: 'bold', overflowWrap: 'anywhere' })}>
          {page.name}
        </h1>
        <p className={css({ mt: '2', fontSize: 'lg', opacity: 0.9 })}>
          {page.courses.length} {page.courses.length === 1 ? 'course' : 'courses'} · {page.instructors.length}{' '}
          {page.instructors.length === 1 ? 'instructor' : 'instructors'}
        </p>
        {sso ? (
          // A full page load: the server starts the OpenID Connect sign-in (decision 0062).
          <a
            href={`/auth/sso/${encodeURIComponent(sso.slug)}?redirect=${encodeURIComponent(`/s/${sso.slug}`)}`}
            className={css({
              display: 'inline-block',
              mt: '4',
              px: '4',
              py: '2',
              borderRadius: 'md',
              bg: 'white',
              color: 'ink',
              fontWeight: 'semibold',
            })}
          >
            Sign in with {sso.name}
          </a>
        ) : null}
      </DarkHero>
      <Container className={css({ py: '10', display: 'grid', gap: '10' })}>
        <TitledSection id="school-courses" title="Courses" titleClassName={contentHeading}>
          {page.courses.length > 0 ? (
            <div className={grid}>
              {page.courses.map((course) => (
                <CourseCard key={course.id} course={course} />
              ))}
            </div>
          ) : (
            <EmptyState title="No published courses yet" />
          )}
        </TitledSection>
        {page.bundles.length > 0 ? (
          <TitledSection id="school-bundles" title="Bundles" titleClassName={contentHeading}>
            <ul className={grid}>
              {page.bundles.map((bundle) => (
                <li key={bundle.slug} className={cx(borderedCard, css({ p: '4' }))}>
                  <Link to="/bundles/$slug" params={{ slug: bundle.slug }} className={css({ fontWeight: 'semibold' })}>
                    {bundle.title}
                  </Link>
                  <p className={css({ color: 'fg.muted', mt: '1' })}>
                    {bundle.courseCount} courses · {formatMoney(bundle.priceMinor, bundle.currency)}
                    {bundle.savingPercent > 0 ? ` · save ${bundle.savingPercent} %` : ''}
                  </p>
                </li>
              ))}
            </ul>
          </TitledSection>
        ) : null}
        <TitledSection id="school-instructors" title="Instructors" titleClassName={contentHeading}>
          <ul className={css({ display: 'flex', gap: '6', flexWrap: 'wrap' })}>
            {page.instructors.map((instructor) => (
              <li key={instructor.slug} className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
                <ProfilePhoto src={instructor.image} alt="" size={56} />
                <span>
                  {site ? (
                    // An instructor's profile is the marketplace's page: a school's own site names them only.
                    <span className={css({ fontWeight: 'semibold' })}>{instructor.name}</span>
                  ) : (
                    <Link
                      to="/instructors/$slug"
                      params={{ slug: instructor.slug }}
                      className={css({ fontWeight: 'semibold', textDecoration: 'underline' })}
                    >
                      {instructor.name}
                    </Link>
                  )}
                  <span className={css({ display: 'block', color: 'fg.muted', fontSize: 'sm' })}>
                    {instructor.title}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        </TitledSection>
      </Container>
    </main>
  )
}

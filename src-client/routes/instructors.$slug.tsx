// /instructors/{slug}: an instructor's public profile — photo, title, bio (Markdown the server rendered and
// sanitised), links, their published courses, and learners and rating computed on the server from real rows.
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, notFound } from '@tanstack/react-router'
import { CourseCard } from '#client/components/course/CourseCard.tsx'
import { DarkHero } from '#client/components/layout/bands.tsx'
import { NotFound } from '#client/components/layout/NotFound.tsx'
import { CreatorLinkList, creatorLinks } from '#client/components/teach/CreatorLinks.tsx'
import { Container, contentHeading, TitledSection } from '#client/components/ui/layout.tsx'
import { markdownArticle } from '#client/components/ui/markdown-article.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { ProfilePhoto } from '#client/components/ui/SafeImage.tsx'
import { Stars } from '#client/components/ui/Stars.tsx'
import { EmptyState, LoadingState } from '#client/components/ui/states.tsx'
import { seo } from '#client/lib/seo.ts'
import { groupDigits } from '#shared/numbers.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/instructors/$slug')({
  loader: async ({ context, params }) => {
    const profile = await context.queryClient.ensureQueryData(
      context.trpc.creators.instructor.queryOptions({ slug: params.slug }),
    )
    if (!profile) throw notFound()
    return { name: profile.name, title: profile.title, image: profile.image }
  },
  head: ({ loaderData }) =>
    loaderData
      ? seo({ title: loaderData.name, description: `${loaderData.name}, ${loaderData.title}: courses on SkillForge.` })
      : seo({ title: 'Instructor not found', description: "We couldn't find that instructor." }),
  pendingComponent: () => <LoadingState label="Loading the instructor…" />,
  errorComponent: routeError('Could not load this instructor'),
  notFoundComponent: NotFound,
  component: InstructorPage,
})

function InstructorPage() {
  const { slug } = Route.useParams()
  const { trpc } = Route.useRouteContext()
  const { data: profile } = useSuspenseQuery(trpc.creators.instructor.queryOptions({ slug }))
  if (!profile) return <NotFound />
  const links = creatorLinks(profile.links)
  return (
    <main>
      <DarkHero
        className={css({
          display: 'flex',
          gap: '6',
          alignItems: 'center',
          flexDir: { base: 'column', sm: 'row' },
          textAlign: { base: 'center', sm: 'left' },
        })}
      >
        <ProfilePhoto src={profile.image} alt={profile.name} size={128} />
        <div>
          <h1 className={css({ fontSize: { base: '2xl', md: '4xl' }, fontWeight: 'bold' })}>{profile.name}</h1>
          <p className={css({ mt: '1', fontSize: 'lg', opacity: 0.9 })}>{profile.title}</p>
          <dl
            className={css({
              mt: '4',
              display: 'flex',
              gap: '6',
              flexWrap: 'wrap',
              justifyContent: { base: 'center', sm: 'start' },
            })}
          >
            <div>
              <dt className={css({ fontSize: 'sm', opacity: 0.8 })}>Learners</dt>
              <dd data-testid="instructor-learners" className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
                {groupDigits(profile.totalLearners)}
              </dd>
            </div>
            <div>
              <dt className={css({ fontSize: 'sm', opacity: 0.8 })}>Courses</dt>
              <dd className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{profile.courses.length}</dd>
            </div>
            <div>
              <dt className={css({ fontSize: 'sm', opacity: 0.8 })}>Average rating</dt>
              <dd data-testid="instructor-rating" className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
                {profile.rating.count > 0 ? (
                  <span className={css({ display: 'inline-flex', gap: '2', alignItems: 'center' })}>
                    <Stars rating={profile.rating.average} showValue={false} />
                    {profile.rating.average.toFixed(1)} ({groupDigits(profile.rating.count)} reviews)
                  </span>
                ) : (
                  'No reviews yet'
                )}
              </dd>
            </div>
          </dl>
        </div>
      </DarkHero>
      <Container className={css({ py: '10', display: 'grid', gap: '10' })}>
        {profile.bioHtml || links.length > 0 ? (
          <TitledSection id="about" title="About" titleClassName={contentHeading}>
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown rendered and sanitised with an allow-list on the server (learning/markdown.ts) */}
            <div className={markdownArticle} dangerouslySetInnerHTML={{ __html: profile.bioHtml }} />
            {links.length > 0 ? (
              <CreatorLinkList links={links} linkClass={css({ color: 'accent', textDecoration: 'underline' })} />
            ) : null}
          </TitledSection>
        ) : null}
        <TitledSection id="courses" title={`Courses by ${profile.name}`} titleClassName={contentHeading}>
          {profile.courses.length > 0 ? (
            <div
              className={css({
                display: 'grid',
                gap: '6',
                gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
              })}
            >
              {profile.courses.map((course) => (
                <CourseCard key={course.id} course={course} />
              ))}
            </div>
          ) : (
            <EmptyState title="No published courses yet" />
          )}
        </TitledSection>
      </Container>
    </main>
  )
}

import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, notFound, useRouter } from '@tanstack/react-router'
import { type ReactNode, useEffect } from 'react'
import { CourseBundles } from '#client/components/bundles/BundleCard.tsx'
import { CurriculumAccordion } from '#client/components/course/CurriculumAccordion.tsx'
import { hoursOfContent, PurchaseBox } from '#client/components/course/PurchaseBox.tsx'
import { CourseReviews } from '#client/components/course/reviews/CourseReviews.tsx'
import { reviewCountLabel } from '#client/components/course/reviews/RatingSummary.tsx'
import { DarkHero } from '#client/components/layout/bands.tsx'
import { NotFound } from '#client/components/layout/NotFound.tsx'
import { CourseLearnAction } from '#client/components/learning/CourseLearnAction.tsx'
import { CourseLiveNotice } from '#client/components/live/UpcomingLive.tsx'
import { raisedCard } from '#client/components/ui/card.ts'
import { Icon } from '#client/components/ui/icons.tsx'
import { JsonLd } from '#client/components/ui/JsonLd.tsx'
import { Container, contentHeading, TitledSection, withAside } from '#client/components/ui/layout.tsx'
import { markdownArticle } from '#client/components/ui/markdown-article.ts'
import { ProfilePhoto } from '#client/components/ui/SafeImage.tsx'
import { Stars } from '#client/components/ui/Stars.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { courseJsonLd } from '#client/lib/course-json-ld.ts'
import { countOf } from '#client/lib/format.ts'
import { useDateFormat } from '#client/lib/local-date.ts'
import { optionalEnum, searchParams } from '#client/lib/search-params.ts'
import { productSeo } from '#client/lib/seo.ts'
import { sessionQuery, useSession } from '#client/lib/session.ts'
import { useSite } from '#client/lib/site.ts'
import { COURSE_CHANNELS } from '#shared/cart.ts'
import { capitalise } from '#shared/constants.ts'
import { groupDigits } from '#shared/numbers.ts'
import { css, cx } from '#styled-system/css'
import type { RouterContext } from '../__root.tsx'

/** `?from=search` or `?from=catalogue`: how the buyer got here (analytics' channels); anything else is direct. */
const routeSearch = searchParams({ from: optionalEnum(COURSE_CHANNELS) })

export const Route = createFileRoute('/courses/$courseId')({
  validateSearch: routeSearch,
  loader: async ({ context, params }) => {
    const { queryClient, trpc } = context
    const [course] = await Promise.all([
      queryClient.ensureQueryData(trpc.catalog.course.queryOptions({ id: params.courseId })),
      // The reviews' summary and first page load with the page, so it shows no spinner under its heading.
      queryClient.ensureQueryData(trpc.reviews.summary.queryOptions({ courseId: params.courseId })).catch(() => null),
      queryClient
        .ensureQueryData(trpc.reviews.list.queryOptions({ courseId: params.courseId, page: 1 }))
        .catch(() => null),
      queryClient.ensureQueryData(trpc.reviews.mine.queryOptions({ courseId: params.courseId })).catch(() => null),
      // The bundles that include it ("Save N %") render with the page; a failure only leaves them out.
      queryClient.prefetchQuery(trpc.bundles.forCourse.queryOptions({ courseId: params.courseId })),
      // Server rendering: a signed-in learner's page shows their own learning action (Continue, Start), not a
      // placeholder the browser fills in later.
      typeof window === 'undefined' ? prefetchLearning(context, params.courseId) : null,
    ])
    if (!course) throw notFound()
    return { title: course.title, description: course.description, image: course.image }
  },
  head: ({ loaderData }) =>
    productSeo(loaderData, {
      title: 'Course Not Found',
      description: "We couldn't find the course you're looking for.",
    }),
  pendingComponent: () => <LoadingState label="Loading course…" />,
  notFoundComponent: NotFound,
  component: CoursePage,
})

async function prefetchLearning({ queryClient, trpc }: RouterContext, courseId: string) {
  const user = await queryClient.ensureQueryData(sessionQuery(trpc)).catch(() => null)
  if (!user) return
  await Promise.all([
    queryClient.prefetchQuery(trpc.learning.course.queryOptions({ courseId })),
    // The "Live session" line under the byline (CourseLiveNotice) renders with the page, not after hydration.
    queryClient.prefetchQuery(trpc.live.upcoming.queryOptions({ courseId })),
  ])
}

const card = cx(raisedCard, css({ p: '6' }))
const categoryChip = css({
  justifySelf: 'start',
  bg: 'brand.600',
  px: '3',
  py: '1',
  borderRadius: 'full',
  fontSize: 'xs',
  fontWeight: 'semibold',
})

function CoursePage() {
  const { courseId } = Route.useParams()
  const { from } = Route.useSearch()
  const { trpc } = Route.useRouteContext()
  const { data: course } = useSuspenseQuery(trpc.catalog.course.queryOptions({ id: courseId }))
  // The server renderer knows the page's origin from the request; the browser from its location.
  const origin = useRouter().options.origin ?? window.location.origin
  const formatDate = useDateFormat()
  const site = useSite()
  // One view per page shown (not per hover preload): the server counts it unless the browser is a bot or asks not
  // to be tracked (DNT, GPC). Nothing is stored in the browser.
  const viewed = useMutation(trpc.analytics.courseViewed.mutationOptions())
  const found = course !== null
  // biome-ignore lint/correctness/useExhaustiveDependencies: one beacon per course shown (with the way in)
  useEffect(() => {
    if (found) viewed.mutate(from ? { courseId, from } : { courseId })
  }, [courseId, found])
  if (!course) return <NotFound />
  return (
    <main>
      <JsonLd data={courseJsonLd(course, origin)} />
      <DarkHero className={withAside}>
        <div className={css({ display: 'grid', gap: '4' })}>
          {site ? (
            // A school's own site has no marketplace catalogue to browse by category (decision 0143).
            <span className={categoryChip}>{course.category}</span>
          ) : (
            <Link to="/courses" search={{ category: course.categorySlug }} className={categoryChip}>
              {course.category}
            </Link>
          )}
          <h1 className={css({ fontSize: { base: '2xl', md: '4xl' }, fontWeight: 'extrabold', lineHeight: 'tight' })}>
            {course.title}
          </h1>
          <p className={css({ color: 'gray.300' })}>{course.subtitle || course.description}</p>
          <div className={css({ display: 'flex', gap: '4', flexWrap: 'wrap', alignItems: 'center', fontSize: 'sm' })}>
            {course.reviewCount > 0 ? <Stars rating={course.rating} tone="dark" /> : null}
            <a href="#reviews" className={css({ textDecoration: 'underline' })}>
              ({reviewCountLabel(course.reviewCount)})
            </a>
            <span>{groupDigits(course.studentsCount)} students</span>
          </div>
          <p className={css({ fontSize: 'sm' })}>Created by {course.instructor}</p>
          <MessageInstructorLink courseId={course.id} />
          <CourseLiveNotice courseId={course.id} />
        </div>
        <PurchaseBox
          course={course}
          cartAction={(currency) => (
            <>
              <CourseLearnAction courseId={course.id} priceMinor={course.priceMinor} currency={currency} from={from} />
              <Link
                to="/gifts/new"
                search={{ course: course.id }}
                className={css({
                  textAlign: 'center',
                  fontSize: 'sm',
                  fontWeight: 'medium',
                  textDecoration: 'underline',
                })}
              >
                Buy as a gift
              </Link>
            </>
          )}
        />
      </DarkHero>
      <Container className={css({ py: '10' })}>
        <div className={css({ display: 'grid', gap: '10', maxW: '4xl' })}>
          {/* A creator may leave either list empty (neither is needed for review): then it has no heading either. */}
          {course.whatYouWillLearn.length > 0 ? (
            <TitledSection id="learn" title="What you'll learn" className={card} titleClassName={contentHeading}>
              <ul className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } })}>
                {course.whatYouWillLearn.map((item) => (
                  <li key={item} className={css({ display: 'flex', gap: '2', fontSize: 'sm' })}>
                    <Icon name="check" size={16} className={css({ color: 'success', flexShrink: 0, mt: '1' })} /> {item}
                  </li>
                ))}
              </ul>
            </TitledSection>
          ) : null}
          {course.descriptionHtml ? (
            <TitledSection id="about" title="About this course" className={card} titleClassName={contentHeading}>
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown rendered and sanitised with an allow-list on the server (learning/markdown.ts) */}
              <div className={markdownArticle} dangerouslySetInnerHTML={{ __html: course.descriptionHtml }} />
            </TitledSection>
          ) : null}
          <CourseBundles courseId={course.id} className={card} />
          <TitledSection id="content" title="Course content" titleClassName={contentHeading}>
            <CurriculumAccordion courseId={course.id} sections={course.curriculum} />
          </TitledSection>
          {course.requirements.length > 0 ? (
            <TitledSection id="requirements" title="Requirements" titleClassName={contentHeading}>
              <ul className={css({ listStyle: 'disc', pl: '6', display: 'grid', gap: '2' })}>
                {course.requirements.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </TitledSection>
          ) : null}
          <TitledSection id="instructor" title="Instructor" className={card} titleClassName={contentHeading}>
            <div className={css({ display: 'flex', gap: '4', alignItems: 'start' })}>
              <ProfilePhoto src={course.instructorProfile.image} alt={course.instructorProfile.name} size={80} />
              <div>
                <p className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
                  {/* An instructor's profile is the marketplace's page: a school's own site names them only. */}
                  {course.instructorProfile.slug && !site ? (
                    <Link
                      to="/instructors/$slug"
                      params={{ slug: course.instructorProfile.slug }}
                      className={css({ color: 'accent', _hover: { textDecoration: 'underline' } })}
                    >
                      {course.instructorProfile.name}
                    </Link>
                  ) : (
                    course.instructorProfile.name
                  )}
                </p>
                <p className={css({ color: 'accent', fontSize: 'sm' })}>{course.instructorProfile.title}</p>
                <p className={css({ mt: '2', color: 'fg.muted', fontSize: 'sm' })}>{course.instructorProfile.bio}</p>
              </div>
            </div>
          </TitledSection>
          <TitledSection id="stats" title="Course Statistics" className={card} titleClassName={contentHeading}>
            <dl
              className={css({
                display: 'grid',
                gap: '4',
                gridTemplateColumns: { base: '1fr 1fr', md: 'repeat(5, 1fr)' },
              })}
            >
              <Stat label="Students" value={groupDigits(course.studentsCount)} />
              <Stat label="Last updated" value={formatDate(course.lastUpdated)} />
              <Stat label="Language" value={course.language || 'English'} />
              <Stat label="Certificate" value={course.certificate ? 'Yes' : 'No'} />
              <Stat label="Level" value={capitalise(course.level)} />
            </dl>
            <p className={css({ mt: '4', fontSize: 'sm', color: 'fg.muted' })}>
              {countOf(course.lessons, 'lesson')} • {hoursOfContent(course.durationMinutes)} of content
            </p>
          </TitledSection>
          <CourseReviews key={course.id} courseId={course.id} className={card} />
        </div>
      </Container>
    </main>
  )
}

/**
 * Signed-in learners write to the course's instructors (issue 34); the conversation page says who may (Premium
 * members and the course's buyers) when the server refuses. A house course's messages are answered by staff (0140).
 */
function MessageInstructorLink({ courseId }: { courseId: string }) {
  const { user } = useSession()
  if (!user) return null
  return (
    <Link
      to="/account/messages/$courseId"
      params={{ courseId }}
      className={css({ fontSize: 'sm', textDecoration: 'underline', justifySelf: 'start' })}
    >
      Message the instructor
    </Link>
  )
}

function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <dt className={css({ fontSize: 'xs', color: 'fg.muted', textTransform: 'uppercase' })}>{label}</dt>
      <dd className={css({ fontWeight: 'semibold' })}>{value}</dd>
    </div>
  )
}

import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import {
  CategoryCards,
  FeaturedCourses,
  FeaturedServices,
  StatsBand,
  Testimonials,
} from '../components/home/dynamic-sections.tsx'
import { PromoCarousel } from '../components/home/PromoCarousel.tsx'
import { ClosingCta, FeatureList, HomeHero } from '../components/home/static-sections.tsx'
import { ErrorState, LoadingState } from '../components/ui/states.tsx'
import { SITE_NAME, seo } from '../lib/seo.ts'

export const Route = createFileRoute('/')({
  // prefetchQuery never throws: a failing section shows its own error state while the rest of the page works.
  loader: ({ context: { queryClient, trpc } }) =>
    Promise.all([
      queryClient.prefetchQuery(trpc.catalog.stats.queryOptions()),
      queryClient.prefetchQuery(trpc.catalog.featuredCourses.queryOptions()),
      queryClient.prefetchQuery(trpc.content.promoVideos.queryOptions()),
      queryClient.prefetchQuery(trpc.services.featured.queryOptions()),
      queryClient.prefetchQuery(trpc.catalog.categories.queryOptions()),
      queryClient.prefetchQuery(trpc.content.testimonials.queryOptions()),
    ]),
  head: () =>
    seo({
      title: SITE_NAME,
      description:
        'Create and sell online courses, learn from working experts, and launch your company with our formation, consultancy and SEO services.',
    }),
  pendingComponent: () => <LoadingState />,
  component: HomePage,
})

function HomePage() {
  const { trpc } = Route.useRouteContext()
  return (
    <main>
      <HomeHero />
      <Promo />
      <StatsBand trpc={trpc} />
      <FeaturedCourses trpc={trpc} />
      <FeaturedServices trpc={trpc} />
      <CategoryCards trpc={trpc} />
      <FeatureList />
      <Testimonials trpc={trpc} />
      <ClosingCta />
    </main>
  )
}

function Promo() {
  const { trpc } = Route.useRouteContext()
  const query = useQuery(trpc.content.promoVideos.queryOptions())
  if (query.isPending) return <LoadingState label="Loading videos…" />
  if (query.isError)
    return <ErrorState title="Failed to load videos" error={query.error} onRetry={() => query.refetch()} />
  return <PromoCarousel videos={query.data} />
}

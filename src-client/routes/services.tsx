import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { css } from '#styled-system/css'
import { ServiceCardGrid } from '../components/service/ServiceCardGrid.tsx'
import { button } from '../components/ui/button.ts'
import { Container, Section } from '../components/ui/layout.tsx'
import { routeError } from '../components/ui/RouteError.tsx'
import { EmptyState, LoadingState } from '../components/ui/states.tsx'
import { seo } from '../lib/seo.ts'

export const Route = createFileRoute('/services')({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.services.list.queryOptions()),
  head: () =>
    seo({
      title: 'Professional Business Services',
      description:
        'UK and USA company formation, business consultancy, SEO audits and SEO management, sold as clear fixed-price packages.',
    }),
  pendingComponent: () => <LoadingState label="Loading services…" />,
  errorComponent: routeError('Failed to load services'),
  component: ServicesPage,
})

function ServicesPage() {
  const { trpc } = Route.useRouteContext()
  const { data: services } = useSuspenseQuery(trpc.services.list.queryOptions())
  return (
    <main>
      <section
        data-surface="dark"
        className={css({ bgGradient: 'to-br', gradientFrom: 'brand.900', gradientTo: 'brand.600', color: 'white' })}
      >
        <Container className={css({ py: { base: '14', md: '20' }, textAlign: 'center' })}>
          <h1 className={css({ fontSize: { base: '3xl', md: '5xl' }, fontWeight: 'extrabold' })}>
            Professional Business Services
          </h1>
          <p className={css({ mt: '4', color: 'brand.100', maxW: '2xl', mx: 'auto', fontSize: 'lg' })}>
            From forming your company in the UK or USA to growing it with expert consultancy and SEO, our specialists
            handle the paperwork and the strategy so you can focus on your customers.
          </p>
        </Container>
      </section>
      <Section>
        {/* The cards' names are h3 (as on the home page, under its h2): this keeps the outline unbroken. */}
        <h2 className={css({ srOnly: true })}>All services</h2>
        {services.length === 0 ? (
          <EmptyState title="No services available at the moment." />
        ) : (
          <ServiceCardGrid
            services={services}
            className={css({ display: 'grid', gap: '6', gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))' })}
          />
        )}
      </Section>
      <section className={css({ bg: 'brand.50', textAlign: 'center' })}>
        <Container className={css({ py: '14' })}>
          <h2 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Need a Custom Solution?</h2>
          <p className={css({ mt: '2', color: 'fg.muted', maxW: 'xl', mx: 'auto' })}>
            Tell us what your business needs and we will put together a package and a quote for you.
          </p>
          <Link to="/contact" className={`${button({ size: 'lg' })} ${css({ mt: '6' })}`}>
            Contact Us
          </Link>
        </Container>
      </section>
    </main>
  )
}

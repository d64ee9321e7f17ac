import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { ServicePackageCartButton } from '#client/components/cart/ServicePackageCartButton.tsx'
import { ClosingBand } from '#client/components/layout/bands.tsx'
import { PackageCard } from '#client/components/service/PackageCard.tsx'
import { button } from '#client/components/ui/button.ts'
import { Faq } from '#client/components/ui/Faq.tsx'
import { Icon } from '#client/components/ui/icons.tsx'
import { JsonLd, offerPrice } from '#client/components/ui/JsonLd.tsx'
import { Container, contentHeading, Section } from '#client/components/ui/layout.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { productSeo } from '#client/lib/seo.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/service/$serviceId')({
  loader: async ({ context, params }) => {
    const service = await context.queryClient.ensureQueryData(
      context.trpc.services.byId.queryOptions({ id: params.serviceId }),
    )
    return service ? { title: service.title, description: service.description, image: service.image } : null
  },
  head: ({ loaderData }) =>
    productSeo(loaderData, {
      title: 'Service Not Found',
      description: "The service you're looking for doesn't exist.",
    }),
  pendingComponent: () => <LoadingState label="Loading service…" />,
  component: ServicePage,
})

function ServiceNotFound() {
  return (
    <main className={css({ flex: 1, display: 'grid', placeItems: 'center', py: '20', px: '4', textAlign: 'center' })}>
      <div>
        <h1 className={css({ fontSize: '3xl', fontWeight: 'bold' })}>Service Not Found</h1>
        <p className={css({ mt: '2', color: 'fg.muted' })}>The service you're looking for doesn't exist.</p>
        <Link to="/services" className={`${button()} ${css({ mt: '6' })}`}>
          View All Services
        </Link>
      </div>
    </main>
  )
}

const heading = css({ fontSize: '2xl', fontWeight: 'bold', mb: '6', textAlign: 'center' })

function ServicePage() {
  const { serviceId } = Route.useParams()
  const { trpc } = Route.useRouteContext()
  const { data: service } = useSuspenseQuery(trpc.services.byId.queryOptions({ id: serviceId }))
  if (!service) return <ServiceNotFound />
  const several = service.packages.length > 1
  return (
    <main>
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'Service',
          name: service.title,
          description: service.description,
          serviceType: service.category,
          provider: { '@type': 'Organization', name: 'SkillForge' },
          offers: service.packages.map((pkg) => ({
            '@type': 'Offer',
            name: pkg.name,
            price: offerPrice(pkg.priceMinor),
            priceCurrency: pkg.currency,
          })),
        }}
      />
      <section
        data-surface="dark"
        className={css({ bgGradient: 'to-br', gradientFrom: 'brand.900', gradientTo: 'brand.600', color: 'white' })}
      >
        <Container className={css({ py: { base: '12', md: '16' } })}>
          <p
            className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'brand.100', textTransform: 'uppercase' })}
          >
            {service.category}
          </p>
          <h1 className={css({ fontSize: { base: '3xl', md: '5xl' }, fontWeight: 'extrabold', mt: '2' })}>
            {service.title}
          </h1>
          <p className={css({ mt: '4', color: 'brand.100', maxW: '3xl', fontSize: 'lg' })}>{service.description}</p>
        </Container>
      </section>
      <Section>
        <h2 className={heading}>Choose Your Package</h2>
        <div
          className={css({
            display: 'grid',
            gap: '6',
            pt: '3',
            gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))',
          })}
        >
          {service.packages.map((pkg, index) => (
            <PackageCard
              key={pkg.id}
              pkg={pkg}
              popular={several && index === 1}
              cartAction={<ServicePackageCartButton packageId={pkg.id} />}
            />
          ))}
        </div>
      </Section>
      <Section>
        <div className={css({ display: 'grid', gap: '10', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } })}>
          <div>
            <h2 className={contentHeading}>What You Get</h2>
            <ul className={css({ display: 'grid', gap: '3' })}>
              {service.whatYouGet.map((item) => (
                <li key={item} className={css({ display: 'flex', gap: '2' })}>
                  <Icon name="check" size={18} className={css({ color: 'success', flexShrink: 0, mt: '0.5' })} /> {item}
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h2 className={contentHeading}>Requirements</h2>
            <ol className={css({ listStyle: 'decimal', pl: '6', display: 'grid', gap: '3' })}>
              {service.requirements.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ol>
          </div>
        </div>
      </Section>
      <Section>
        <h2 className={heading}>Our Process</h2>
        <ol className={css({ display: 'grid', gap: '6', gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))' })}>
          {service.processSteps.map((step) => (
            <li key={step.step} className={css({ bg: 'surface', p: '5', borderRadius: 'card', boxShadow: 'card' })}>
              <span
                className={css({
                  display: 'inline-grid',
                  placeItems: 'center',
                  w: '10',
                  h: '10',
                  borderRadius: 'full',
                  bg: 'accent',
                  color: 'white',
                  fontWeight: 'bold',
                })}
              >
                {step.step}
              </span>
              <h3 className={css({ fontWeight: 'semibold', mt: '3' })}>{step.title}</h3>
              <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>{step.description}</p>
            </li>
          ))}
        </ol>
      </Section>
      {service.faqs.length > 0 ? (
        <Section>
          <h2 className={heading}>Frequently Asked Questions</h2>
          <Faq items={service.faqs} />
        </Section>
      ) : null}
      <ClosingBand
        title="Ready to Get Started?"
        text="Choose a package above, or talk to us about what you need."
        action={{ to: '/contact', label: 'Contact Us' }}
      />
    </main>
  )
}

// /certificates/{id}: the public Certificate of Completion (no sign-in), printable on one A4 landscape page, with
// its PDF download and LinkedIn's "Add to profile". An unknown id is the not-found page.
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { NotFound } from '#client/components/layout/NotFound.tsx'
import { button } from '#client/components/ui/button.ts'
import { Container } from '#client/components/ui/layout.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { notFoundIfMissing } from '#client/lib/errors.ts'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'

export const Route = createFileRoute('/certificates/$certificateId')({
  loader: async ({ context, params }) => {
    const certificate = await context.queryClient
      .ensureQueryData(context.trpc.learning.certificate.queryOptions({ id: params.certificateId }))
      .catch(notFoundIfMissing)
    return { title: `${certificate.learnerName}: ${certificate.courseTitle}` }
  },
  head: ({ loaderData }) => ({
    meta: [{ title: `Certificate of Completion${loaderData ? ` | ${loaderData.title}` : ''} | SkillForge` }],
  }),
  pendingComponent: () => <LoadingState label="Loading certificate…" />,
  notFoundComponent: NotFound,
  component: CertificatePage,
})

// Printing: one A4 landscape page with the certificate only (the site's header, footer and buttons hidden).
const PRINT_CSS = `@media print {
  @page { size: A4 landscape; margin: 0; }
  body * { visibility: hidden; }
  [data-certificate], [data-certificate] * { visibility: visible; }
  [data-certificate] { position: fixed; inset: 0; margin: 0; box-shadow: none; border-radius: 0; }
}`

function CertificatePage() {
  const { certificateId } = Route.useParams()
  const { trpc } = Route.useRouteContext()
  const { data: c } = useSuspenseQuery(trpc.learning.certificate.queryOptions({ id: certificateId }))
  const verified = c.status === 'verified'
  // The document's long day, as on its PDF (decision 0095): the same for every visitor, not their locale's.
  const date = formatDate(c.issuedAt)
  return (
    <main className={css({ bg: 'canvas', py: '10' })}>
      <style>{PRINT_CSS}</style>
      <Container className={css({ display: 'grid', gap: '6', justifyItems: 'center' })}>
        <section
          data-certificate
          aria-labelledby="certificate-title"
          className={css({
            bg: 'white',
            color: 'gray.900',
            w: 'full',
            maxW: '4xl',
            // A4 landscape from a laptop's width up. Narrower, the card grows with its text: a fixed ratio turned the
            // text's height into a minimum width (721 px on a 390 px phone, scrolling sideways).
            aspectRatio: { base: 'auto', lg: '297 / 210' },
            borderWidth: '6px',
            borderColor: 'brand.600',
            borderStyle: 'double',
            borderRadius: 'card',
            boxShadow: 'raised',
            p: { base: '6', md: '12' },
            display: 'grid',
            alignContent: 'center',
            justifyItems: 'center',
            gap: '3',
            textAlign: 'center',
          })}
        >
          <p className={css({ color: 'brand.600', fontWeight: 'bold', fontSize: 'lg' })}>SkillForge</p>
          <h1 id="certificate-title" className={css({ fontSize: { base: '2xl', md: '4xl' }, fontWeight: 'extrabold' })}>
            Certificate of Completion
          </h1>
          <p className={css({ color: 'gray.600' })}>This certifies that</p>
          <p
            className={css({ fontSize: { base: 'xl', md: '3xl' }, fontWeight: 'bold' })}
            data-testid="certificate-learner"
          >
            {c.learnerName}
          </p>
          <p className={css({ color: 'gray.600' })}>has completed the course</p>
          <p className={css({ fontSize: { base: 'lg', md: '2xl' }, fontWeight: 'semibold' })}>{c.courseTitle}</p>
          <p>Instructor: {c.instructorName}</p>
          <p>Completed on {date}</p>
          {c.gradePercent !== null ? (
            <p className={css({ fontWeight: 'semibold' })} data-testid="certificate-grade">
              Final grade: {c.gradePercent} %
            </p>
          ) : null}
          <p
            data-testid="certificate-status"
            className={css({ fontWeight: 'bold', color: verified ? 'success' : 'danger', mt: '2' })}
          >
            {verified ? 'Verified' : 'Revoked'}
          </p>
          <p className={css({ fontSize: 'xs', color: 'gray.500' })}>Certificate ID: {c.id}</p>
        </section>
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', justifyContent: 'center' })}>
          <a href={c.pdfUrl} className={button()} download>
            Download PDF
          </a>
          <button type="button" className={button({ variant: 'outline' })} onClick={() => window.print()}>
            Print
          </button>
          {c.linkedInUrl ? (
            <a
              href={c.linkedInUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={cx(button({ variant: 'outline' }))}
            >
              Add to LinkedIn profile
            </a>
          ) : null}
        </div>
      </Container>
    </main>
  )
}

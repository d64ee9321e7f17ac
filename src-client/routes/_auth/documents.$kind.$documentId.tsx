// The print-ready page of an invoice or credit note (the buyer's, or any for staff), with Print and Download PDF.

import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, notFound } from '@tanstack/react-router'
import { button } from '#client/components/ui/button.ts'
import { borderedCard } from '#client/components/ui/card.ts'
import { Container } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { formatDate } from '#shared/dates.ts'
import { partyLines } from '#shared/documents.ts'
import { formatMoney } from '#shared/money.ts'
import { css, cx } from '#styled-system/css'

const TITLES = { invoice: 'Invoice', credit_note: 'Credit note' } as const
type Kind = keyof typeof TITLES
const isKind = (value: string): value is Kind => value === 'invoice' || value === 'credit_note'

export const Route = createFileRoute('/_auth/documents/$kind/$documentId')({
  loader: async ({ context: { queryClient, trpc }, params }) => {
    if (!isKind(params.kind)) throw notFound()
    await queryClient.ensureQueryData(
      trpc.purchases.document.queryOptions({ kind: params.kind, id: params.documentId }),
    )
  },
  head: ({ params }) => ({
    meta: [{ title: `${isKind(params.kind) ? TITLES[params.kind] : 'Document'} | SkillForge` }],
  }),
  pendingComponent: () => <LoadingState label="Loading document…" />,
  errorComponent: routeError('Could not load this document'),
  component: DocumentPage,
})

const cell = css({ py: '2', borderBottomWidth: '1px', borderColor: 'line', textAlign: 'left' })
const amount = css({ textAlign: 'right' })

function DocumentPage() {
  const { trpc } = Route.useRouteContext()
  const params = Route.useParams()
  const kind = params.kind as Kind
  const { data: doc } = useSuspenseQuery(trpc.purchases.document.queryOptions({ kind, id: params.documentId }))
  const money = (minor: number) => formatMoney(minor, doc.currency)
  const party = (heading: string, who: typeof doc.seller) => (
    <div>
      <h2 className={css({ fontWeight: 'bold' })}>{heading}</h2>
      {partyLines(who).map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  )
  return (
    <main>
      <Container className={css({ py: '8', maxW: '3xl' })}>
        <div
          className={css({
            display: 'flex',
            gap: '3',
            justifyContent: 'flex-end',
            mb: '6',
            _print: { display: 'none' },
          })}
        >
          <button type="button" className={button({ variant: 'outline' })} onClick={() => window.print()}>
            Print
          </button>
          <a className={button()} href={`/api/documents/${kind}/${doc.id}.pdf`} download={`${doc.number}.pdf`}>
            Download PDF
          </a>
        </div>
        <article
          aria-labelledby="document-title"
          className={cx(
            borderedCard,
            css({
              p: { base: '4', sm: '8' },
              // Long e-mail addresses and VAT numbers wrap rather than widen the page on a phone.
              overflowWrap: 'anywhere',
            }),
          )}
        >
          <h1 id="document-title" className={css({ fontSize: '2xl', fontWeight: 'bold' })}>
            {TITLES[kind]} {doc.number}
          </h1>
          <p>Date: {formatDate(doc.issuedAt)}</p>
          {doc.orderReference ? <p>Order: {doc.orderReference}</p> : null}
          {doc.invoiceNumber ? <p>Credit for invoice: {doc.invoiceNumber}</p> : null}
          <div
            className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '6', my: '6' })}
          >
            {party('From', doc.seller)}
            {party('To', doc.buyer)}
          </div>
          <table className={css({ w: 'full', borderCollapse: 'collapse' })}>
            <thead>
              <tr>
                <th className={cell}>Description</th>
                <th className={`${cell} ${amount}`}>Amount</th>
              </tr>
            </thead>
            <tbody>
              {doc.lines.map((line) => (
                <tr key={`${line.orderItemId ?? ''}${line.title}`}>
                  <td className={cell}>
                    {line.title}
                    {line.detail ? ` (${line.detail})` : ''}
                  </td>
                  <td className={`${cell} ${amount}`}>{money(line.amountMinor)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td className={cell}>Subtotal</td>
                <td className={`${cell} ${amount}`}>{money(doc.subtotalMinor)}</td>
              </tr>
              {(doc.taxLines.length ? doc.taxLines : [{ name: 'Tax', amountMinor: 0 }]).map((tax) => (
                <tr key={tax.name}>
                  <td className={cell}>{tax.name}</td>
                  <td className={`${cell} ${amount}`}>{money(tax.amountMinor)}</td>
                </tr>
              ))}
              <tr>
                <th className={cell}>Total</th>
                <th className={`${cell} ${amount}`}>{money(doc.totalMinor)}</th>
              </tr>
            </tfoot>
          </table>
        </article>
      </Container>
    </main>
  )
}

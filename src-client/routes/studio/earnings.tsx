// /studio/earnings: a creator's money — balances per currency (pending inside the 30-day refund window, available,
// paid out, and what is owed back after a refund of money already paid), the next payout date, the last 12 months as
// a chart with its table, the ledger entries, and a statement (CSV, PDF) per month. Only the caller's own ledger.
import { keepPreviousData, useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { EarningsChart } from '#client/components/studio/EarningsChart.tsx'
import { BalanceFigures, StatementList } from '#client/components/studio/EarningsPanels.tsx'
import { PremiumPoolSection } from '#client/components/studio/PremiumPoolSection.tsx'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { Pagination } from '#client/components/ui/Pagination.tsx'
import { panel as card } from '#client/components/ui/panel.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { ScrollRegion } from '#client/components/ui/ScrollRegion.tsx'
import { EmptyState, ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { formatDate } from '#shared/dates.ts'
import { formatMoney } from '#shared/money.ts'
import { EARNINGS_PAGE_SIZE } from '#shared/schemas/earnings.ts'
import { css } from '#styled-system/css'

type Search = { page?: number }

export const Route = createFileRoute('/studio/earnings')({
  validateSearch: (search: Record<string, unknown>): Search => {
    const page = Number(search.page)
    return Number.isInteger(page) && page > 1 && page <= 10_000 ? { page } : {}
  },
  loaderDeps: ({ search: { page } }) => ({ page: page ?? 1 }),
  loader: ({ context, deps }) =>
    Promise.all([
      context.queryClient.ensureQueryData(context.trpc.earnings.overview.queryOptions()),
      context.queryClient.ensureQueryData(context.trpc.earnings.monthly.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.earnings.entries.queryOptions({ page: deps.page })),
    ]),
  head: () => ({ meta: [{ title: 'Earnings | SkillForge Studio' }] }),
  pendingComponent: () => <LoadingState label="Loading your earnings…" />,
  errorComponent: routeError('Could not load your earnings'),
  component: EarningsPage,
})

function EarningsPage() {
  const { trpc } = Route.useRouteContext()
  const { data: overview } = useSuspenseQuery(trpc.earnings.overview.queryOptions())
  const { data: monthly } = useSuspenseQuery(trpc.earnings.monthly.queryOptions())
  const feePercent = overview.feeBasisPoints / 100
  return (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
      <PageIntro title="Earnings">
        Your share of each sale is held for 30 days (the refund window), then becomes available and is paid on the 1st
        of the month. {/* A lapsed plan is no plan: such sales pay Basic's fee, but the creator is not on Basic. */}
        {overview.planName
          ? `Platform fee on your ${overview.planName} plan: ${feePercent} %.`
          : `Platform fee without a creator plan: ${feePercent} % (as on Basic).`}{' '}
        A card payment's processing fee comes off each sale's share too, shown as its own entry. If the buyer's bank
        disputes a payment, its shares stay pending until the dispute closes.
      </PageIntro>

      <TitledSection id="balances-heading" title="Balances" className={card}>
        <p>
          Next payout: <strong>{formatDate(overview.nextPayoutAt)}</strong> (06:00 UTC)
          {overview.payoutAccount.state !== 'ready' ? (
            <>
              {' '}
              — <Link to="/studio/payouts">set up payouts</Link> to receive it
            </>
          ) : null}
          {overview.payoutsPaused ? ' — payouts are paused by the platform for now' : null}
        </p>
        <BalanceFigures
          balances={overview.balances}
          empty={<p>When someone buys one of your courses, your share appears here.</p>}
        />
      </TitledSection>

      {monthly.series.length > 0 ? (
        <TitledSection id="chart-heading" title="Last 12 months" className={card}>
          {monthly.series.map((series) => (
            <EarningsChart key={series.currency} currency={series.currency} months={series.months} />
          ))}
        </TitledSection>
      ) : null}

      <PremiumPoolSection className={card} />

      <EntriesSection />

      <TitledSection id="statements-heading" title="Statements" className={card}>
        <StatementList months={monthly.statementMonths} />
      </TitledSection>
    </main>
  )
}

function EntriesSection() {
  const { trpc } = Route.useRouteContext()
  const { page } = Route.useLoaderDeps()
  const navigate = useNavigate({ from: Route.fullPath })
  const entries = useQuery({ ...trpc.earnings.entries.queryOptions({ page }), placeholderData: keepPreviousData })
  return (
    <TitledSection id="entries-heading" title="Ledger entries" className={card}>
      {entries.isPending ? (
        <LoadingState label="Loading entries…" />
      ) : entries.isError ? (
        <ErrorState title="Could not load entries" error={entries.error} onRetry={() => entries.refetch()} />
      ) : entries.data.entries.length === 0 ? (
        <EmptyState title="No entries yet" />
      ) : (
        <>
          <ScrollRegion label="Ledger entries table">
            <table
              className={css({
                w: 'full',
                fontSize: 'sm',
                '& th, & td': { px: '2', py: '2', textAlign: 'left', borderBottomWidth: '1px', borderColor: 'line' },
                '& .amount': { textAlign: 'right', whiteSpace: 'nowrap' },
              })}
            >
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">What happened</th>
                  <th scope="col" className="amount">
                    Pending
                  </th>
                  <th scope="col" className="amount">
                    Available
                  </th>
                  <th scope="col" className="amount">
                    Paid out
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.data.entries.map((entry) => (
                  <tr key={`${entry.transactionId}-${entry.currency}`}>
                    <td className={css({ whiteSpace: 'nowrap' })}>{formatDate(entry.at, 'longTime')}</td>
                    <td>{entry.description}</td>
                    <td className="amount">
                      {entry.pendingMinor ? formatMoney(entry.pendingMinor, entry.currency) : '–'}
                    </td>
                    <td className="amount">
                      {entry.availableMinor ? formatMoney(entry.availableMinor, entry.currency) : '–'}
                    </td>
                    <td className="amount">
                      {entry.paidOutMinor ? formatMoney(entry.paidOutMinor, entry.currency) : '–'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <Pagination
            page={page}
            pageCount={Math.max(1, Math.ceil(entries.data.total / EARNINGS_PAGE_SIZE))}
            onPage={(next) => navigate({ search: next > 1 ? { page: next } : {} })}
          />
        </>
      )}
    </TitledSection>
  )
}

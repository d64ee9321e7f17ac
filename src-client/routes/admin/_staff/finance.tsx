// /admin/finance (admins and up): what is owed to creators per currency against the platform's Stripe balance
// (Stripe down reads "unavailable"), the payouts run and failed with their last error, negative balances, a CSV of
// every creator's balances, and the owner's pause of payouts (audited on the server).
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { AdminTable } from '#client/components/admin/AdminTable.tsx'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { errorText, pageHead, pageTitle, panel } from '#client/components/admin/styles.ts'
import { useStaff } from '#client/components/admin/use-staff.ts'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, LoadingState } from '#client/components/ui/states.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { errorMessage } from '#client/lib/errors.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/finance')({
  head: () => ({ meta: [{ title: 'Finance | SkillForge Admin' }] }),
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.admin.finance.overview.queryOptions()),
  pendingComponent: () => <LoadingState label="Loading finance…" />,
  errorComponent: routeError('Could not load finance'),
  component: Finance,
})

const STATUS_TONES = {
  paid: 'green',
  failed: 'red',
  unconfirmed: 'yellow',
  sending: 'yellow',
  pending: 'blue',
  reversed: 'grey',
  withdrawn: 'grey',
} as const
const section = css({ display: 'flex', flexDir: 'column', gap: '3' })
const heading = css({ fontSize: 'lg', fontWeight: 'semibold' })
const note = css({ fontSize: 'sm', color: 'fg.muted' })

/** "(1 failed, 2 unconfirmed)" after the Payouts heading; nothing when every payout went through. */
function payoutCounts(failed: number, unconfirmed: number): string {
  const counts = [failed ? `${failed} failed` : '', unconfirmed ? `${unconfirmed} unconfirmed` : ''].filter(Boolean)
  return counts.length ? `(${counts.join(', ')})` : ''
}

function Finance() {
  const { trpc } = Route.useRouteContext()
  const { can } = useStaff()
  const queryClient = useQueryClient()
  const { data } = useSuspenseQuery(trpc.admin.finance.overview.queryOptions())
  const [confirming, setConfirming] = useState(false)
  const pause = useMutation(
    trpc.admin.finance.setPaused.mutationOptions({
      onSuccess: async ({ paused }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.admin.finance.overview.queryKey() })
        notify('success', paused ? 'Payouts paused' : 'Payouts resumed')
        setConfirming(false)
      },
      onError: (error) => notify('error', errorMessage(error)),
    }),
  )
  const stripeAvailable = (currency: string) =>
    data.stripeBalance.state === 'available'
      ? data.stripeBalance.available.find((entry) => entry.currency === currency)?.amountMinor
      : undefined

  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '6' })}>
      <div className={pageHead}>
        <h1 className={pageTitle}>Finance</h1>
        <a href="/api/admin/finance/balances.csv" className={button({ variant: 'outline', size: 'sm' })} download>
          Export creator balances (CSV)
        </a>
      </div>

      <TitledSection id="owed-heading" title="Owed to creators" className={section} titleClassName={heading}>
        {data.stripeBalance.state === 'unavailable' ? (
          <p role="status">Stripe balance unavailable: {data.stripeBalance.reason}</p>
        ) : null}
        <div className={panel}>
          {data.owed.length === 0 ? (
            <EmptyState title="Nothing owed to creators yet" />
          ) : (
            <AdminTable
              columns={['Currency', 'Pending', 'Available', 'Owed in total', 'Stripe available']}
              scrollLabel="Owed to creators table"
            >
              {data.owed.map((row) => {
                const onStripe = stripeAvailable(row.currency)
                return (
                  <tr key={row.currency}>
                    <td>{row.currency}</td>
                    <td>{formatMoney(row.pendingMinor, row.currency)}</td>
                    <td>{formatMoney(row.availableMinor, row.currency)}</td>
                    <td>{formatMoney(row.owedMinor, row.currency)}</td>
                    <td>
                      {onStripe === undefined ? 'unavailable' : formatMoney(onStripe, row.currency)}
                      {onStripe !== undefined && onStripe < row.owedMinor ? (
                        <span className={errorText}> (less than owed)</span>
                      ) : null}
                    </td>
                  </tr>
                )
              })}
            </AdminTable>
          )}
        </div>
        {data.owed.length ? (
          <p className={note}>
            Owed in total adds up each creator’s pending and available where above zero; a creator whose balance is
            negative (below) repays it from later earnings, so it is not taken off what the others are owed.
          </p>
        ) : null}
      </TitledSection>

      <section aria-labelledby="payouts-heading" className={section}>
        <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
          <h2 id="payouts-heading" className={heading}>
            Payouts {payoutCounts(data.failedPayouts, data.unconfirmedPayouts)}
          </h2>
          <span className={badge({ tone: data.paused ? 'red' : 'green' })}>{data.paused ? 'Paused' : 'Running'}</span>
          {can('super_admin') ? (
            <button
              type="button"
              className={button({ variant: 'outline', size: 'sm' })}
              onClick={() => setConfirming(true)}
            >
              {data.paused ? 'Resume payouts' : 'Pause payouts'}
            </button>
          ) : null}
        </div>
        <div className={panel}>
          {data.payouts.length === 0 ? (
            <EmptyState title="No payouts yet" />
          ) : (
            <AdminTable
              columns={['Creator', 'Month', 'Amount', 'Status', 'Tries', 'Last error']}
              scrollLabel="Payouts table"
            >
              {data.payouts.map((payout) => (
                <tr key={payout.id}>
                  <td>
                    {payout.creator}
                    <div className={css({ fontSize: 'xs', color: 'fg.muted' })}>{payout.email}</div>
                  </td>
                  <td>{payout.month}</td>
                  <td>{formatMoney(payout.amountMinor, payout.currency)}</td>
                  <td>
                    <span className={badge({ tone: STATUS_TONES[payout.status] })}>{payout.status}</span>
                  </td>
                  <td>{payout.attempts}</td>
                  <td className={css({ maxW: '80', overflowWrap: 'anywhere' })}>{payout.lastError ?? '–'}</td>
                </tr>
              ))}
            </AdminTable>
          )}
          {data.unconfirmedPayouts > 0 ? (
            <p className={note}>
              Unconfirmed: Stripe did not answer the last try, so it may have made the transfer. The amount stays
              reserved; the next run looks the transfer up in Stripe and records it, or sends it again if Stripe has
              none.
            </p>
          ) : null}
        </div>
      </section>

      <TitledSection id="negative-heading" title="Negative balances" className={section} titleClassName={heading}>
        <div className={panel}>
          {data.negativeBalances.length === 0 ? (
            <EmptyState title="No creator owes money back" />
          ) : (
            <AdminTable
              columns={['Creator', 'Currency', 'Available', 'Paid out']}
              scrollLabel="Negative balances table"
            >
              {data.negativeBalances.map((row) => (
                <tr key={`${row.creatorId}-${row.currency}`}>
                  <td>
                    {row.name}
                    <div className={css({ fontSize: 'xs', color: 'fg.muted' })}>{row.email}</div>
                  </td>
                  <td>{row.currency}</td>
                  <td>{formatMoney(row.availableMinor, row.currency)}</td>
                  <td>{formatMoney(row.paidOutMinor, row.currency)}</td>
                </tr>
              ))}
            </AdminTable>
          )}
        </div>
      </TitledSection>

      <ConfirmDialog
        open={confirming}
        title={data.paused ? 'Resume payouts?' : 'Pause payouts?'}
        description={
          data.paused
            ? 'The next monthly run pays creators again.'
            : 'The monthly run pays nobody until payouts are resumed; balances keep accruing.'
        }
        confirmLabel={data.paused ? 'Resume payouts' : 'Pause payouts'}
        pending={pause.isPending}
        onConfirm={() => pause.mutate({ paused: !data.paused })}
        onCancel={() => setConfirming(false)}
      />
    </div>
  )
}

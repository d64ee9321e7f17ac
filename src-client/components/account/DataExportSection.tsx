// "Download my data" (issue 28): ask for a copy of everything the shop holds about you; a job builds the ZIP within
// a minute or two and e-mails you; it is listed here to download for 7 days. The server checks it is yours.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { errorMessage } from '#client/lib/errors.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { ErrorState, LoadingState } from '../ui/states.tsx'
import { notify } from '../ui/toaster.tsx'
import { SectionCard } from './SectionCard.tsx'

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' })
const STATUS = { pending: 'Being prepared…', ready: 'Ready', failed: 'Failed: please ask again', expired: 'Expired' }

export function DataExportSection() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const exports = useQuery({
    ...trpc.privacy.exports.queryOptions(),
    // While one is being prepared, look again every few seconds.
    refetchInterval: (query) => (query.state.data?.some((row) => row.status === 'pending') ? 5000 : false),
  })
  const ask = useMutation(
    trpc.privacy.requestExport.mutationOptions({
      onSuccess: async () => {
        notify('success', 'We are preparing your data', 'We will e-mail you when it is ready to download.')
        await queryClient.invalidateQueries({ queryKey: trpc.privacy.exports.queryKey() })
      },
      onError: (error) => notify('error', 'Could not ask for your data', errorMessage(error)),
    }),
  )
  const pending = exports.data?.some((row) => row.status === 'pending') ?? false

  return (
    <SectionCard
      title="Download my data"
      description="A ZIP of everything we hold about you: profile, orders with their invoices, learning, reviews, service orders and, if you teach, your courses and earnings."
    >
      <button type="button" className={button()} disabled={ask.isPending || pending} onClick={() => ask.mutate()}>
        {pending ? 'Being prepared…' : 'Download my data'}
      </button>
      {exports.isPending ? (
        <LoadingState label="Loading your exports…" />
      ) : exports.isError ? (
        <ErrorState title="Could not load your exports" error={exports.error} onRetry={() => exports.refetch()} />
      ) : exports.data.length === 0 ? null : (
        <ul aria-label="Your data exports" className={css({ mt: '4', display: 'grid', gap: '2' })}>
          {exports.data.map((row) => (
            <li
              key={row.id}
              className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'center', fontSize: 'sm' })}
            >
              <span>Asked {dateTime.format(new Date(row.created_at))}</span>
              <span className={css({ color: 'fg.muted' })}>{STATUS[row.status]}</span>
              {row.status === 'ready' && row.expires_at ? (
                <a
                  href={`/api/account/exports/${row.id}.zip`}
                  download
                  className={css({ textDecoration: 'underline', fontWeight: 'medium' })}
                >
                  Download ZIP ({Math.max(1, Math.round((row.size_bytes ?? 0) / 1024))} KB, until{' '}
                  {dateTime.format(new Date(row.expires_at))})
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  )
}

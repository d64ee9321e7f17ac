// The Earnings page's Premium pool: this month's minutes watched by Premium members on each course in Premium, and
// for each month computed, every course's minutes and its share of the pool (credited as available on the 1st).
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { ScrollRegion } from '#client/components/ui/ScrollRegion.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'

const table = css({
  w: 'full',
  fontSize: 'sm',
  '& th, & td': { px: '2', py: '2', textAlign: 'left', borderBottomWidth: '1px', borderColor: 'line' },
  '& .amount': { textAlign: 'right', whiteSpace: 'nowrap' },
})
const minutes = (n: number) => `${n.toLocaleString('en-GB')} min`

export function PremiumPoolSection({ className }: { className: string }) {
  const trpc = useTRPC()
  const pool = useQuery(trpc.premiumPool.mine.queryOptions())
  return (
    <TitledSection id="pool-heading" title="Premium pool" className={className}>
      <p>
        Each month a share of Premium revenue (after refunds) is split among the courses in Premium by the minutes
        Premium members watched them. Your part is added to your available balance on the 1st of the next month.
      </p>
      {pool.isPending ? (
        <LoadingState label="Loading your Premium pool…" />
      ) : pool.isError ? (
        <ErrorState title="Could not load your Premium pool" error={pool.error} onRetry={() => pool.refetch()} />
      ) : (
        <>
          {pool.data.current.length === 0 ? (
            <p>
              None of your courses is in Premium yet: switch it on in a course's Details tab, from{' '}
              <Link to="/studio">My courses</Link>.
            </p>
          ) : (
            <div>
              <h3 className={css({ fontWeight: 'semibold', mb: '1' })}>This month so far ({pool.data.month})</h3>
              <ul className={css({ display: 'flex', flexDir: 'column', gap: '1' })}>
                {pool.data.current.map((course) => (
                  <li key={course.courseId}>
                    {course.title}: {minutes(course.minutesWatched)} watched by Premium members
                  </li>
                ))}
              </ul>
            </div>
          )}
          {pool.data.shares.length === 0 ? (
            <p>No pool shares yet: the first is computed on the 1st of the month after Premium members watch.</p>
          ) : (
            <ScrollRegion label="Premium pool shares table">
              <table className={table}>
                <caption className={css({ srOnly: true })}>Premium pool shares by month and course</caption>
                <thead>
                  <tr>
                    <th scope="col">Month</th>
                    <th scope="col">Course</th>
                    <th scope="col" className="amount">
                      Minutes watched
                    </th>
                    <th scope="col" className="amount">
                      Pool share
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {pool.data.shares.map((share) => (
                    <tr key={`${share.month}-${share.currency}-${share.courseId}`}>
                      <td className={css({ whiteSpace: 'nowrap' })}>{share.month}</td>
                      <td>{share.title}</td>
                      <td className="amount">{minutes(share.minutesWatched)}</td>
                      <td className="amount">{formatMoney(share.shareMinor, share.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
        </>
      )}
    </TitledSection>
  )
}

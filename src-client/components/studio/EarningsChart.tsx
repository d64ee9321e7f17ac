// The last 12 months of one currency: a Recharts bar chart (lazy: loaded after the page, never on the server) and
// the table behind it, always shown, which screen readers and keyboards use.
import { lazy, Suspense, useEffect, useState } from 'react'
import { ScrollRegion } from '#client/components/ui/ScrollRegion.tsx'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import type { ChartMonth } from './EarningsChartBars.tsx'

const Bars = lazy(() => import('./EarningsChartBars.tsx'))

const chartBox = css({ minH: '260px', display: 'flex', alignItems: 'center', justifyContent: 'center' })

export function EarningsChart({ currency, months }: { currency: string; months: ChartMonth[] }) {
  // Drawn only in the browser: the server render and the first paint show the table, then the chart arrives.
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  const money = (minor: number) => formatMoney(minor, currency)
  return (
    <figure className={css({ m: 0, display: 'flex', flexDir: 'column', gap: '3' })}>
      <figcaption className={css({ fontWeight: 'semibold' })}>Last 12 months in {currency}</figcaption>
      <div className={chartBox}>
        {mounted ? (
          <Suspense fallback={<p className={css({ color: 'fg.muted' })}>Drawing the chart…</p>}>
            <Bars currency={currency} months={months} />
          </Suspense>
        ) : (
          <p className={css({ color: 'fg.muted' })}>Drawing the chart…</p>
        )}
      </div>
      {/* Scrolls sideways on a phone, in its own focusable region. */}
      <ScrollRegion label={`Earnings per month in ${currency}`}>
        <table className={css({ w: 'full', fontSize: 'sm', '& th, & td': { px: '2', py: '1', textAlign: 'right' } })}>
          <thead>
            <tr>
              <th scope="col" className={css({ textAlign: 'left!' })}>
                Month
              </th>
              <th scope="col">Earned</th>
              <th scope="col">Refunded</th>
              <th scope="col">Fees</th>
              <th scope="col">Net</th>
              <th scope="col">Paid out</th>
            </tr>
          </thead>
          <tbody>
            {months.map((month) => (
              <tr key={month.month}>
                <th scope="row" className={css({ textAlign: 'left!', fontWeight: 'normal' })}>
                  {month.month}
                </th>
                <td>{money(month.earnedMinor)}</td>
                <td>{money(month.refundedMinor)}</td>
                <td>{money(month.feesMinor)}</td>
                <td>{money(month.netMinor)}</td>
                <td>{money(month.paidOutMinor)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </figure>
  )
}

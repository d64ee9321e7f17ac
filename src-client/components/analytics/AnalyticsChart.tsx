// One analytics chart: a caption, the Recharts drawing (browser only, lazy) and the table behind it, always shown,
// which screen readers and keyboards use. Every period of the range is a row: an empty one shows zero.
import { lazy, Suspense, useEffect, useState } from 'react'
import { ScrollRegion, stickyFirstColumn } from '#client/components/ui/ScrollRegion.tsx'
import { css, cx } from '#styled-system/css'
import type { ChartSeries } from './AnalyticsChartDrawing.tsx'

const Drawing = lazy(() => import('./AnalyticsChartDrawing.tsx'))

export const tableStyle = css({
  w: 'full',
  fontSize: 'sm',
  borderCollapse: 'collapse',
  '& th, & td': { px: '2', py: '1', textAlign: 'right', whiteSpace: 'nowrap' },
  '& thead th': { borderBottomWidth: '1px', borderColor: 'line' },
})

export function AnalyticsChart({
  title,
  rows,
  series,
  format,
  periodLabel = 'Period',
}: {
  title: string
  rows: Record<string, string | number>[]
  series: ChartSeries[]
  format: (value: number) => string
  periodLabel?: string
}) {
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  return (
    <figure className={css({ m: 0, display: 'flex', flexDir: 'column', gap: '3', minW: 0 })}>
      <figcaption className={css({ fontWeight: 'semibold' })}>{title}</figcaption>
      <div className={css({ minH: '260px', display: 'flex', alignItems: 'center', justifyContent: 'center' })}>
        {mounted ? (
          <Suspense fallback={<p className={css({ color: 'fg.muted' })}>Drawing the chart…</p>}>
            <Drawing rows={rows} series={series} format={format} />
          </Suspense>
        ) : (
          <p className={css({ color: 'fg.muted' })}>Drawing the chart…</p>
        )}
      </div>
      <ScrollRegion label={`${title}: table`}>
        <table className={cx(tableStyle, stickyFirstColumn)}>
          <thead>
            <tr>
              <th scope="col" className={css({ textAlign: 'left!' })}>
                {periodLabel}
              </th>
              {series.map((line) => (
                <th scope="col" key={line.key}>
                  {line.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={String(row.period)}>
                <th scope="row" className={css({ textAlign: 'left!', fontWeight: 'normal' })}>
                  {row.period}
                </th>
                {series.map((line) => (
                  <td key={line.key}>{format(Number(row[line.key] ?? 0))}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </figure>
  )
}

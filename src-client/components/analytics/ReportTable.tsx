// A table of the analytics pages (studio and staff): a heading per row kept in view when the table scrolls sideways,
// right-aligned figures, in its own focusable scroll region.
import type { ReactNode } from 'react'
import { ScrollRegion, stickyFirstColumn } from '#client/components/ui/ScrollRegion.tsx'
import { EmptyState } from '#client/components/ui/states.tsx'
import { css, cx } from '#styled-system/css'
import { tableStyle } from './AnalyticsChart.tsx'

const rowHeadStyle = css({ textAlign: 'left!', fontWeight: 'normal' })
const wrappedRowHeadStyle = css({ textAlign: 'left!', fontWeight: 'normal', whiteSpace: 'normal!' })

/**
 * One of the report's tables, or its empty state (`empty`, when given) when it has no row: the first column (`head[0]`) holds each row's
 * heading and stays in view when the table scrolls sideways; `cells` are the other columns, in `head`'s order.
 */
export function ReportTable<Row>({
  rows,
  empty,
  label,
  testId,
  head,
  rowKey,
  rowHead,
  wrapRowHead = false,
  cells,
}: {
  rows: readonly Row[]
  empty?: string
  label: string
  testId: string
  head: readonly string[]
  rowKey: (row: Row) => string
  rowHead: (row: Row) => ReactNode
  /** Long row headings wrap instead of widening the table. */
  wrapRowHead?: boolean
  cells: (row: Row) => ReactNode[]
}) {
  if (empty && rows.length === 0) return <EmptyState title={empty} />
  const [first, ...columns] = head
  return (
    <ScrollRegion label={label}>
      <table className={cx(tableStyle, stickyFirstColumn)} data-testid={testId}>
        <thead>
          <tr>
            <th scope="col" className={css({ textAlign: 'left!' })}>
              {first}
            </th>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              <th scope="row" className={wrapRowHead ? wrappedRowHeadStyle : rowHeadStyle}>
                {rowHead(row)}
              </th>
              {cells(row).map((cell, index) => (
                <td key={columns[index]}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  )
}

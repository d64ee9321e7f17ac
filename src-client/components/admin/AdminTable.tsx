// The admin's tables: a header row of column names over the rows a screen draws, and the paged list of a screen
// (its panel, the loading → error → empty ladder, the table and the pages under it), and a row's action button.
import type { ReactNode } from 'react'
import { css, cx } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { Pagination } from '../ui/Pagination.tsx'
import { QueryList, type QueryListProps } from '../ui/QueryList.tsx'
import { ScrollRegion } from '../ui/ScrollRegion.tsx'
import { panel, table } from './styles.ts'

/**
 * Below md, a stacked table draws each row as a block of its cells, each under its column's name (the cell's
 * `data-label`; the header row is kept for screen readers only): on a phone nothing sits off-screen, a row's actions
 * included, where a scrolling table would hide its last columns.
 */
const stackedOnPhones = css({
  mdDown: {
    display: 'block',
    '& thead': { srOnly: true },
    '& tbody, & tr, & td': { display: 'block' },
    '& tr': { px: '4', py: '2', borderBottomWidth: '1px', borderColor: 'line' },
    '& tr:last-child': { borderBottomWidth: 0 },
    '& td, & tr:last-child td': { px: 0, py: '1', borderBottomWidth: 0 },
    '& :is(th, td):first-child': { position: 'static' },
    '& td[data-label]::before': {
      content: 'attr(data-label)',
      display: 'block',
      fontSize: 'xs',
      fontWeight: 'semibold',
      color: 'fg.muted',
    },
  },
})

/**
 * A table with `columns` as its header; with `scrollLabel` it scrolls sideways in its own labelled region; `stacked`,
 * its rows stack on a phone (give each cell its column's name as `data-label`).
 */
export function AdminTable({
  columns,
  scrollLabel,
  stacked = false,
  children,
}: {
  /** The header cells; a column shown only to some (null, false) is left out. */
  columns: readonly (string | null | false)[]
  scrollLabel?: string
  stacked?: boolean
  /** The rows. */
  children: ReactNode
}) {
  const drawn = (
    <table className={stacked ? cx(table, stackedOnPhones) : table}>
      <thead>
        <tr>
          {columns.filter(Boolean).map((column) => (
            <th key={column as string}>{column}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  )
  return scrollLabel ? <ScrollRegion label={scrollLabel}>{drawn}</ScrollRegion> : drawn
}

/** A row's action (Edit, Delete, Remove): a small ghost button whose name also says the row ("Delete Maths"). */
export function RowAction({ action, row, onClick }: { action: string; row: string; onClick: () => void }) {
  return (
    <button
      type="button"
      className={button({ variant: 'ghost', size: 'sm' })}
      aria-label={`${action} ${row}`}
      onClick={onClick}
    >
      {action}
    </button>
  )
}

interface Page {
  items: readonly unknown[]
  page: number
  /** The server's page count; a list that only knows whether another page follows sends `hasNext` instead. */
  pageCount?: number
  hasNext?: boolean
}

/** A screen's paged list in its panel: the states of QueryList, then the list and its pages (Previous, Next). */
export function PagedList<Data extends Page>({
  onPage,
  children,
  ...states
}: QueryListProps<Data> & {
  /** Goes to another page (the page is in the URL). */
  onPage: (page: number) => void
}) {
  // A page past the end (an old link, or the last rows of the last page worked off the list): the list's empty
  // state, with the way back to its last page.
  const data = states.query.data
  const last = data?.pageCount ?? 1
  const pastTheEnd = data !== undefined && data.items.length === 0 && data.page > 1
  return (
    <div className={panel}>
      <QueryList
        {...states}
        emptyAction={
          pastTheEnd ? (
            <button type="button" className={button({ variant: 'outline' })} onClick={() => onPage(last)}>
              Go to page {last}
            </button>
          ) : (
            states.emptyAction
          )
        }
      >
        {(data) => (
          <>
            {children(data)}
            <Pagination
              page={data.page}
              pageCount={data.pageCount}
              hasNext={data.hasNext}
              align="end"
              onPage={onPage}
            />
          </>
        )}
      </QueryList>
    </div>
  )
}

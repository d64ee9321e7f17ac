import { css } from '../../../styled-system/css'
import { button } from '../ui/button.ts'

/** Previous / page x of y / Next; the pages come from the server's count. */
export function Pagination({
  page,
  pageCount,
  onPage,
}: {
  page: number
  pageCount: number
  onPage: (page: number) => void
}) {
  if (pageCount <= 1) return null
  return (
    <nav
      aria-label="Pagination"
      className={css({ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: '2', p: '4' })}
    >
      <button
        type="button"
        className={button({ variant: 'outline', size: 'sm' })}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      {Array.from({ length: pageCount }, (_, index) => index + 1).map((number) => (
        <button
          key={number}
          type="button"
          aria-current={number === page ? 'page' : undefined}
          className={button({ variant: number === page ? 'primary' : 'outline', size: 'sm' })}
          onClick={() => onPage(number)}
        >
          {number}
        </button>
      ))}
      <button
        type="button"
        className={button({ variant: 'outline', size: 'sm' })}
        disabled={page >= pageCount}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  )
}

import { css } from '../../../styled-system/css'
import { button } from '../ui/button.ts'

/** Pages around the current one, with the first and last always shown. */
export function pageNumbers(page: number, pageCount: number, around = 2): (number | 'gap')[] {
  const pages: (number | 'gap')[] = []
  for (let n = 1; n <= pageCount; n++) {
    if (n === 1 || n === pageCount || Math.abs(n - page) <= around) pages.push(n)
    else if (pages[pages.length - 1] !== 'gap') pages.push('gap')
  }
  return pages
}

export function Pagination({
  page,
  pageCount,
  onChange,
}: {
  page: number
  pageCount: number
  onChange: (page: number) => void
}) {
  if (pageCount <= 1) return null
  return (
    <nav
      aria-label="Pagination"
      className={css({ display: 'flex', gap: '2', justifyContent: 'center', flexWrap: 'wrap', mt: '10' })}
    >
      <button
        type="button"
        className={button({ variant: 'outline', size: 'sm' })}
        disabled={page <= 1}
        onClick={() => onChange(page - 1)}
      >
        Previous
      </button>
      {pageNumbers(page, pageCount).map((n, index) =>
        n === 'gap' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity of their own
          <span key={`gap-${index}`} aria-hidden className={css({ px: '2', alignSelf: 'center' })}>
            …
          </span>
        ) : (
          <button
            key={n}
            type="button"
            aria-label={`Page ${n}`}
            aria-current={n === page ? 'page' : undefined}
            className={button({ variant: n === page ? 'primary' : 'outline', size: 'sm' })}
            onClick={() => onChange(n)}
          >
            {n}
          </button>
        ),
      )}
      <button
        type="button"
        className={button({ variant: 'outline', size: 'sm' })}
        disabled={page >= pageCount}
        onClick={() => onChange(page + 1)}
      >
        Next
      </button>
    </nav>
  )
}

import { css, cx } from '#styled-system/css'
import { button } from './button.ts'

/** Pages around the current one, with the first and last always shown. */
export function pageNumbers(page: number, pageCount: number, around = 2): (number | 'gap')[] {
  const pages: (number | 'gap')[] = []
  for (let n = 1; n <= pageCount; n++) {
    if (n === 1 || n === pageCount || Math.abs(n - page) <= around) pages.push(n)
    else if (pages[pages.length - 1] !== 'gap') pages.push('gap')
  }
  return pages
}

const placement = {
  center: css({ justifyContent: 'center', flexWrap: 'wrap', mt: '10' }),
  end: css({ justifyContent: 'flex-end', p: '4' }),
}

/**
 * Previous, page numbers, Next. With `pageCount` the numbers come from the server's count; a list that only
 * knows whether there is a next page (`hasNext`) gets Previous and Next alone.
 */
export function Pagination({
  page,
  pageCount,
  hasNext = page < (pageCount ?? 0),
  onPage,
  align = 'center',
}: {
  page: number
  pageCount?: number
  hasNext?: boolean
  onPage: (page: number) => void
  align?: keyof typeof placement
}) {
  if (page <= 1 && !hasNext) return null
  return (
    <nav
      aria-label="Pagination"
      className={cx(css({ display: 'flex', alignItems: 'center', gap: '2' }), placement[align])}
    >
      <button
        type="button"
        className={button({ variant: 'outline', size: 'sm' })}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      {pageCount
        ? pageNumbers(page, pageCount).map((n, index) =>
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
                onClick={() => onPage(n)}
              >
                {n}
              </button>
            ),
          )
        : null}
      <button
        type="button"
        className={button({ variant: 'outline', size: 'sm' })}
        disabled={!hasNext}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  )
}

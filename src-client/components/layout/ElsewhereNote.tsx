// On a school's own domain the learner's lists show the school's items only (decision 0150); this says how many of
// theirs are not the school's, with the way to them on the marketplace. Nothing when there are none.
import type { SchoolSite } from '#client/lib/site.ts'
import { css } from '#styled-system/css'

export function ElsewhereNote({
  site,
  count,
  noun,
  path,
  linkText,
  testId,
}: {
  site: SchoolSite
  count: number
  /** What is counted, with the rest of its phrase: ['course in your account', 'courses in your account']. */
  noun: readonly [one: string, many: string]
  /** The same list on the marketplace. */
  path: string
  linkText: string
  testId: string
}) {
  if (count <= 0) return null
  const lead = count === 1 ? `One more ${noun[0]} is` : `${count} more ${noun[1]} are`
  return (
    <p className={css({ mt: '4', fontSize: 'sm' })} data-testid={testId}>
      {lead} not from {site.name}.{' '}
      <a
        href={`${site.marketplaceUrl}${path}`}
        className={css({ textDecoration: 'underline', fontWeight: 'semibold' })}
      >
        {linkText}
      </a>
    </p>
  )
}

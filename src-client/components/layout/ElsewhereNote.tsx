// On a school's own domain the learner's lists show the school's items only (decision 0150); ElsewhereNote says how
// many of theirs are not the school's, with the way to them on the marketplace (nothing when there are none), and
// SchoolSiteItems is a list drawn that way.
import type { ReactNode } from 'react'
import type { SchoolSite } from '#client/lib/site.ts'
import { css } from '#styled-system/css'

type NoteText = {
  /** What is counted, with the rest of its phrase: ['course in your account', 'courses in your account']. */
  noun: readonly [one: string, many: string]
  /** The same list on the marketplace. */
  path: string
  linkText: string
  testId: string
}

/** The items the school sells, drawn by `children` (or `empty` when none), then the count of the others. */
export function SchoolSiteItems<Item extends { school: string | null }>({
  site,
  items,
  empty,
  note,
  children,
}: {
  site: SchoolSite
  items: Item[]
  empty: string
  note: NoteText
  children: (own: Item[]) => ReactNode
}) {
  const own = items.filter((item) => item.school === site.slug)
  return (
    <>
      {own.length > 0 ? children(own) : <p className={css({ color: 'fg.muted' })}>{empty}</p>}
      <ElsewhereNote site={site} count={items.length - own.length} {...note} />
    </>
  )
}

export function ElsewhereNote({
  site,
  count,
  noun,
  path,
  linkText,
  testId,
}: { site: SchoolSite; count: number } & NoteText) {
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

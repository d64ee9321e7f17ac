// A creator's links (website, LinkedIn, YouTube): those set, in that order, as a row of links opening in a new tab.
// The application to teach (staff's page) and the instructor's public profile show them.
import { css } from '#styled-system/css'

/** The links' names, in the order they are shown (and asked for on the profile page). */
export const LINK_LABELS = { website: 'Website', linkedin: 'LinkedIn', youtube: 'YouTube' } as const
export type LinkKey = keyof typeof LINK_LABELS
export const LINK_KEYS = Object.keys(LINK_LABELS) as LinkKey[]
export type CreatorLink = { key: LinkKey; href: string }

/** The links that are set, in a fixed order. */
export function creatorLinks(links: Partial<Record<LinkKey, string | null>>): CreatorLink[] {
  return LINK_KEYS.flatMap((key) => {
    const href = links[key]
    return href ? [{ key, href }] : []
  })
}

/** The row of links; `withAddress` adds each address after its name (staff check where it goes). */
export function CreatorLinkList({
  links,
  linkClass,
  withAddress = false,
}: {
  links: CreatorLink[]
  linkClass: string
  withAddress?: boolean
}) {
  return (
    <ul className={css({ display: 'flex', gap: '4', flexWrap: 'wrap' })}>
      {links.map((link) => (
        <li key={link.key}>
          <a href={link.href} rel="noopener noreferrer nofollow" target="_blank" className={linkClass}>
            {LINK_LABELS[link.key]}
            {withAddress ? `: ${link.href}` : null}
          </a>
        </li>
      ))}
    </ul>
  )
}

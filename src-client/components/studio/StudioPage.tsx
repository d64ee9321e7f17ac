// A studio settings page (school, domain and brand, single sign-on, webhooks, API keys, instructor profile): its
// heading and intro over its sections, in one column of readable width; and the link to a school's public page.
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css, cx } from '#styled-system/css'

const introClass = css({ mt: '2', color: 'fg.muted' })
/** An intro that names an address (/s/…): it may break anywhere rather than run past the edge. */
const addressIntro = css({ overflowWrap: 'anywhere' })

export function StudioPage({
  title,
  intro,
  introNamesAddress = false,
  children,
}: {
  title: string
  intro: ReactNode
  introNamesAddress?: boolean
  children: ReactNode
}) {
  return (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '6', maxW: '3xl', minW: 0 })}>
      <header>
        <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold' })}>{title}</h1>
        <p className={introNamesAddress ? cx(introClass, addressIntro) : introClass}>{intro}</p>
      </header>
      {children}
    </main>
  )
}

/** A school's public page, named by its address (/s/slug), as the school's settings and team pages show it. */
export function SchoolAddress({ slug }: { slug: string }) {
  return (
    <Link to="/s/$slug" params={{ slug }} className={css({ textDecoration: 'underline' })}>
      /s/{slug}
    </Link>
  )
}

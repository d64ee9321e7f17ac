// The full-width dark bands of the public pages: a detail page's hero and the band that closes a selling page.
import { Link, type LinkProps } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css, cx } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { Container } from '../ui/layout.tsx'

/**
 * The dark band at the top of a course's, a bundle's, an instructor's and a school's page. `className` lays out what
 * it holds inside the page's container; the band's padding stays its own.
 */
export function DarkHero({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <section data-surface="dark" className={css({ bg: 'ink', color: 'white' })}>
      <Container className={cx(css({ py: { base: '10', md: '14' } }), className)}>{children}</Container>
    </section>
  )
}

/** A band's call to action: where it goes (with its search and hash, if any) and what it says. */
type BandAction = { to: LinkProps['to']; search?: LinkProps['search']; hash?: string; label: string }

/**
 * The brand-coloured band at the foot of a selling page (home, pricing, a service): a heading, a line, then what to do
 * next: the main action on the band's light button, and another way on an outlined one.
 */
export function ClosingBand({
  title,
  text,
  action,
  secondary,
}: {
  title: string
  text: string
  action: BandAction
  secondary?: BandAction
}) {
  return (
    <section data-surface="dark" className={css({ bg: 'brand.700', color: 'white', textAlign: 'center' })}>
      <Container className={css({ py: '14' })}>
        <h2 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{title}</h2>
        <p className={css({ mt: '2', color: 'brand.100', maxW: '2xl', mx: 'auto' })}>{text}</p>
        <div className={css({ mt: '6', display: 'flex', gap: '3', justifyContent: 'center', flexWrap: 'wrap' })}>
          <Link
            to={action.to}
            search={action.search}
            hash={action.hash}
            className={button({ variant: 'light', size: 'lg' })}
          >
            {action.label}
          </Link>
          {secondary ? (
            <Link to={secondary.to} className={button({ variant: 'outline', size: 'lg' })}>
              {secondary.label}
            </Link>
          ) : null}
        </div>
      </Container>
    </section>
  )
}

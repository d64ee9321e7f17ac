// The full-width dark bands of the public pages: a detail page's hero and the band that closes a selling page.
import type { ReactNode } from 'react'
import { css, cx } from '#styled-system/css'
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

/** The brand-coloured band at the foot of the pricing and service pages: a heading, a line, then what to do next. */
export function ClosingBand({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <section data-surface="dark" className={css({ bg: 'brand.700', color: 'white', textAlign: 'center' })}>
      <Container className={css({ py: '14' })}>
        <h2 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{title}</h2>
        <p className={css({ mt: '2', color: 'brand.100' })}>{text}</p>
        {children}
      </Container>
    </section>
  )
}

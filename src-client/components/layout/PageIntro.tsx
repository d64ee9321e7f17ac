import type { ReactNode } from 'react'
import { css } from '#styled-system/css'
import { Container } from '../ui/layout.tsx'

/** The coloured band at the top of content pages. */
export function PageIntro({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className={css({ bg: 'brand.50', borderBottomWidth: '1px', borderColor: 'brand.100' })}>
      <Container className={css({ py: { base: '10', md: '14' } })}>
        <h1 className={css({ fontSize: { base: '2xl', md: '4xl' }, fontWeight: 'extrabold' })}>{title}</h1>
        {children ? <div className={css({ mt: '3', color: 'fg.muted', maxW: '2xl' })}>{children}</div> : null}
      </Container>
    </section>
  )
}

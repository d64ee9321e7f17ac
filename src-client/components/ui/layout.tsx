import type { ReactNode } from 'react'
import { css, cx } from '#styled-system/css'

export const containerClass = css({ maxW: 'content', mx: 'auto', px: { base: '4', md: '6' } })

export function Container({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cx(containerClass, className)}>{children}</div>
}

export function Section({ title, children, id }: { title?: ReactNode; children: ReactNode; id?: string }) {
  return (
    <section
      aria-labelledby={title && id ? `${id}-title` : undefined}
      className={css({ py: { base: '10', md: '16' } })}
    >
      <Container>
        {title ? (
          <h2 id={id ? `${id}-title` : undefined} className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '6' })}>
            {title}
          </h2>
        ) : null}
        {children}
      </Container>
    </section>
  )
}

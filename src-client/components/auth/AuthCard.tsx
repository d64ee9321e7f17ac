import type { ReactNode } from 'react'
import { css, cx } from '#styled-system/css'
import { borderedCard } from '../ui/card.ts'

/** The centred card the log-in, sign-up and token screens sit in. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <main className={css({ flex: 1, display: 'grid', placeItems: 'center', px: '4', py: { base: '10', md: '16' } })}>
      <div className={cx(borderedCard, css({ w: 'full', maxW: 'md', boxShadow: 'raised', p: { base: '5', md: '8' } }))}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'extrabold', textAlign: 'center' })}>{title}</h1>
        {subtitle ? <p className={css({ mt: '2', color: 'fg.muted', textAlign: 'center' })}>{subtitle}</p> : null}
        <div className={css({ mt: '6', display: 'flex', flexDir: 'column', gap: '4' })}>{children}</div>
      </div>
    </main>
  )
}

// Underlined: a link inside a sentence must not be told apart by its colour alone (WCAG 1.4.1).
export const authLink = css({ color: 'accent', fontWeight: 'medium', textDecoration: 'underline' })

import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css } from '#styled-system/css'
import { PageIntro } from '../layout/PageIntro.tsx'
import { button } from '../ui/button.ts'
import { Container } from '../ui/layout.tsx'

export interface InfoSection {
  title: string
  /** Paragraphs; a string array item becomes a bulleted list. */
  body: (string | string[] | ReactNode)[]
}

const prose = css({
  display: 'grid',
  gap: '3',
  color: 'fg.muted',
  '& ul': { listStyle: 'disc', pl: '6', display: 'grid', gap: '1' },
  '& a': { color: 'accent', textDecoration: 'underline' },
})

/** A text page: an intro band, numbered or plain sections, and an optional closing block. */
export function InfoPage({
  title,
  intro,
  sections,
  numbered = false,
  updated,
  children,
}: {
  title: string
  intro: ReactNode
  sections: InfoSection[]
  numbered?: boolean
  updated?: string
  children?: ReactNode
}) {
  return (
    <main>
      <PageIntro title={title}>
        <p>{intro}</p>
        {updated ? <p className={css({ mt: '2', fontSize: 'sm' })}>Last updated: {updated}</p> : null}
      </PageIntro>
      <Container className={css({ py: '12' })}>
        <div className={css({ maxW: '3xl', display: 'grid', gap: '10' })}>
          {sections.map((section, index) => (
            <section key={section.title} aria-labelledby={`section-${index}`}>
              <h2 id={`section-${index}`} className={css({ fontSize: 'xl', fontWeight: 'bold', mb: '3', color: 'fg' })}>
                {numbered ? `${index + 1}. ` : ''}
                {section.title}
              </h2>
              <div className={prose}>
                {section.body.map((part, i) =>
                  Array.isArray(part) ? (
                    // biome-ignore lint/suspicious/noArrayIndexKey: static content in a fixed order
                    <ul key={i}>
                      {part.map((item) => (
                        <li key={String(item)}>{item}</li>
                      ))}
                    </ul>
                  ) : typeof part === 'string' ? (
                    // biome-ignore lint/suspicious/noArrayIndexKey: static content in a fixed order
                    <p key={i}>{part}</p>
                  ) : (
                    // biome-ignore lint/suspicious/noArrayIndexKey: static content in a fixed order
                    <div key={i}>{part}</div>
                  ),
                )}
              </div>
            </section>
          ))}
          {children}
        </div>
      </Container>
    </main>
  )
}

export function HomeLink() {
  return (
    <p>
      <Link to="/" className={button({ variant: 'outline' })}>
        Return to Home
      </Link>
    </p>
  )
}

import type { HTMLAttributes, ReactNode } from 'react'
import { css, cx } from '#styled-system/css'

export const containerClass = css({ maxW: 'content', mx: 'auto', px: { base: '4', md: '6' } })

/** A page's main column with a narrower one beside it from large screens (the course's and the bundle's buy box). */
export const withAside = css({
  display: 'grid',
  gap: '8',
  gridTemplateColumns: { base: '1fr', lg: '2fr 1fr' },
  alignItems: 'start',
})

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

/** The heading of a public page's content section (a course's, a bundle's, a school's, a service's, Contact). */
export const contentHeading = css({ fontSize: 'xl', fontWeight: 'bold', mb: '4' })

const sectionHeading = css({ fontSize: 'lg', fontWeight: 'semibold' })

/** A boxed section's heading with room below it, for a box that does not space what it holds (a lesson's questions,
 * a quiz's results, a coupon or live-session form, the admin's pending invitations and refund requests). */
export const boxHeading = cx(sectionHeading, css({ mb: '3' }))

/**
 * A section named by its heading (aria-labelledby): an h2 with the given id (a panel's heading unless
 * `titleClassName` says), then what the section holds.
 */
export function TitledSection({
  id,
  title,
  titleClassName = sectionHeading,
  children,
  ...section
}: { id: string; title: ReactNode; titleClassName?: string; children: ReactNode } & Omit<
  HTMLAttributes<HTMLElement>,
  'id' | 'title'
>) {
  return (
    <section aria-labelledby={id} {...section}>
      <h2 id={id} className={titleClassName}>
        {title}
      </h2>
      {children}
    </section>
  )
}

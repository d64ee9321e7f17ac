// One message of a thread, as a service order's thread and a course's conversation with its instructors both draw
// it: who sent it and when, the text as written, then its files.
import type { ReactNode } from 'react'
import { formatDate } from '#shared/dates.ts'
import { css, cva } from '#styled-system/css'
import { FileLinks, type OrderFile } from './files.tsx'

const bubble = cva({
  base: { p: '3', borderRadius: 'card', borderWidth: '1px', borderColor: 'line', bg: 'surface' },
  variants: {
    /** The reader's own message is tinted; a staff's internal note is marked apart. */
    from: { other: {}, mine: { bg: 'brand.50' }, internal: { borderColor: '#fde68a', bg: '#fffbeb' } },
  },
  defaultVariants: { from: 'other' },
})

/** A message list's item; `sender` is the byline's start (the author and what they are), the date follows it. */
export function MessageItem({
  testId,
  from,
  sender,
  createdAt,
  body,
  files,
  footer,
}: {
  testId: string
  from: 'other' | 'mine' | 'internal'
  sender: ReactNode
  createdAt: string
  body: string
  files: OrderFile[]
  /** A line under the message (a support answer's delivery state). */
  footer?: ReactNode
}) {
  return (
    <li data-testid={testId} className={bubble({ from })}>
      <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
        {sender} · {formatDate(createdAt, 'localTime')}
      </p>
      <p className={css({ whiteSpace: 'pre-wrap', mt: '1', overflowWrap: 'anywhere' })}>{body}</p>
      <FileLinks files={files} />
      {footer}
    </li>
  )
}

// The conversations of an inbox of those who answer them (the studio's, the admin's house courses'), newest first,
// with unread counts; `link` draws each one's link to its conversation page.
import type { ReactNode } from 'react'
import { threadLink } from '#client/components/instructor-messages/thread-link.ts'
import { EmptyState, ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'

export type InboxThread = {
  id: string
  subject: string
  member: string
  courseTitle: string
  lastMessageAt: string
  unread: number
  closed: boolean
  blocked: boolean
}

export function InboxThreads(props: {
  threads: readonly InboxThread[] | undefined
  failed: boolean
  empty: ReactNode
  link: (thread: InboxThread, className: string) => ReactNode
}) {
  if (props.failed) return <ErrorState title="Could not load the messages" />
  if (!props.threads) return <LoadingState label="Loading…" />
  if (props.threads.length === 0) return <EmptyState title="No conversations">{props.empty}</EmptyState>
  return (
    <ul className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
      {props.threads.map((thread) => (
        <li key={thread.id} data-testid="inbox-thread">
          {props.link(thread, threadLink)}{' '}
          {thread.unread > 0 ? (
            <span className={css({ fontSize: 'sm', fontWeight: 'bold' })}>({thread.unread} unread)</span>
          ) : null}
          <span className={css({ display: 'block', fontSize: 'sm', color: 'fg.muted' })}>
            {thread.member} · {thread.courseTitle} · {formatDate(thread.lastMessageAt, 'localTime')}
            {thread.closed ? ' · Closed' : ''}
            {thread.blocked ? ' · Sender blocked' : ''}
          </span>
        </li>
      ))}
    </ul>
  )
}

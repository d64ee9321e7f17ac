// Reported messages (issue 34): conversations between members and instructors that someone reported, which editors
// and up may open (no other thread is readable by staff), and every block instructors made.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { MessageList } from '#client/components/instructor-messages/Conversation.tsx'
import { button } from '#client/components/ui/button.ts'
import { borderedCard } from '#client/components/ui/card.ts'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/messages')({
  head: () => ({ meta: [{ title: 'Reported messages | SkillForge Admin' }] }),
  loader: ({ context }) =>
    context.queryClient.ensureQueryData(context.trpc.admin.instructorMessages.overview.queryOptions()),
  pendingComponent: () => <LoadingState label="Loading reported messages…" />,
  errorComponent: routeError('Could not load reported messages'),
  component: ReportedMessages,
})

const card = cx(borderedCard, css({ p: '4' }))
const column = css({ display: 'flex', flexDir: 'column', gap: '3' })

function ReportedThread({ threadId }: { threadId: string }) {
  const { trpc } = Route.useRouteContext()
  const thread = useQuery(trpc.admin.instructorMessages.thread.queryOptions({ threadId }))
  if (thread.isError) return <ErrorState title="Could not load this conversation" error={thread.error} />
  if (!thread.data) return <LoadingState label="Loading the conversation…" />
  return <MessageList messages={thread.data.messages} />
}

function ReportedMessages() {
  const { trpc } = Route.useRouteContext()
  const { data } = useSuspenseQuery(trpc.admin.instructorMessages.overview.queryOptions())
  const [open, setOpen] = useState<string | null>(null)
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '6' })}>
      <div className={pageHead}>
        <h1 className={pageTitle}>Reported messages</h1>
      </div>
      <TitledSection id="reports-title" title="Reports" className={column}>
        {data.reports.length === 0 ? (
          <EmptyState title="No reported conversations" />
        ) : (
          <ul className={column}>
            {data.reports.map((report) => (
              <li key={`${report.threadId}-${report.reporter}`} className={card} data-testid="reported-thread">
                <p className={css({ fontWeight: 'semibold' })}>
                  {report.subject} · {report.courseTitle}
                </p>
                <p className={css({ fontSize: 'sm' })}>
                  Reported by {report.reporter} ({report.byMember ? 'the member' : 'an instructor'}) on{' '}
                  {formatDate(report.createdAt, 'localTime')}: {report.reason}
                </p>
                <button
                  type="button"
                  className={`${button({ variant: 'outline', size: 'sm' })} ${css({ mt: '2' })}`}
                  aria-expanded={open === report.threadId}
                  onClick={() => setOpen(open === report.threadId ? null : report.threadId)}
                >
                  {open === report.threadId ? 'Hide conversation' : 'Read conversation'}
                </button>
                {open === report.threadId ? (
                  <div className={css({ mt: '3' })}>
                    <ReportedThread threadId={report.threadId} />
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </TitledSection>
      <TitledSection id="blocks-title" title="Blocked senders" className={column}>
        {data.blocks.length === 0 ? (
          <EmptyState title="No blocked senders" />
        ) : (
          <ul className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
            {data.blocks.map((block) => (
              <li key={`${block.courseId}-${block.member}`} className={card} data-testid="message-block">
                {block.member} in {block.courseTitle}, blocked by {block.blockedBy} on{' '}
                {formatDate(block.createdAt, 'localTime')}
                {block.reason ? `: ${block.reason}` : ''}
              </li>
            ))}
          </ul>
        )}
      </TitledSection>
    </div>
  )
}

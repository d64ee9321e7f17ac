// Messages (issue 34) for editors and up: the house courses' conversations, which staff answer (decision 0140);
// conversations between members and instructors that someone reported, which staff may open (no other creator's
// thread is readable by staff), and every block instructors made.
import { keepPreviousData, useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { MessageList } from '#client/components/instructor-messages/Conversation.tsx'
import { InboxThreads } from '#client/components/instructor-messages/InboxThreads.tsx'
import { button } from '#client/components/ui/button.ts'
import { borderedCard } from '#client/components/ui/card.ts'
import { SelectField } from '#client/components/ui/form.tsx'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/messages')({
  head: () => ({ meta: [{ title: 'Messages | SkillForge Admin' }] }),
  loader: ({ context }) =>
    context.queryClient.ensureQueryData(context.trpc.admin.instructorMessages.overview.queryOptions()),
  pendingComponent: () => <LoadingState label="Loading messages…" />,
  errorComponent: routeError('Could not load messages'),
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

type Filter = 'all' | 'unread' | 'open' | 'closed'

/** The house courses' conversations: nobody teaches those courses, so staff answer their learners. */
function HouseInbox() {
  const { trpc } = Route.useRouteContext()
  const [filter, setFilter] = useState<Filter>('open')
  const inbox = useQuery({
    ...trpc.admin.instructorMessages.houseInbox.queryOptions({ filter }),
    placeholderData: keepPreviousData,
  })
  return (
    <TitledSection id="house-title" title="House courses" className={column}>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Learners’ messages about the courses SkillForge runs itself: staff answer them.
      </p>
      <SelectField label="Show" value={filter} onChange={(event) => setFilter(event.target.value as Filter)}>
        <option value="open">Open</option>
        <option value="unread">Unread</option>
        <option value="closed">Closed</option>
        <option value="all">All conversations</option>
      </SelectField>
      <InboxThreads
        threads={inbox.data?.threads}
        failed={inbox.isError}
        empty={<p>Members write from a house course’s page (“Message the instructor”).</p>}
        link={(thread, className) => (
          <Link to="/admin/messages/$threadId" params={{ threadId: thread.id }} className={className}>
            {thread.subject}
          </Link>
        )}
      />
    </TitledSection>
  )
}

function ReportedMessages() {
  const { trpc } = Route.useRouteContext()
  const { data } = useSuspenseQuery(trpc.admin.instructorMessages.overview.queryOptions())
  const [open, setOpen] = useState<string | null>(null)
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '6' })}>
      <div className={pageHead}>
        <h1 className={pageTitle}>Messages</h1>
      </div>
      <HouseInbox />
      <TitledSection id="reports-title" title="Reported conversations" className={column}>
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

// The member's conversations with instructors (issue 34): one per course, with unread counts, and the mail setting
// (one e-mail per message, or a daily digest). On a school's own domain, those of the school's courses only, and a
// link to the rest on the marketplace (decision 0150).

import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import type { ChangeEvent } from 'react'
import { SectionCard } from '#client/components/account/SectionCard.tsx'
import { useSaveMailSetting } from '#client/components/instructor-messages/mail-setting.ts'
import { threadLink } from '#client/components/instructor-messages/thread-link.ts'
import { ElsewhereNote } from '#client/components/layout/ElsewhereNote.tsx'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { CheckboxField } from '#client/components/ui/form.tsx'
import { Container } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, LoadingState } from '#client/components/ui/states.tsx'
import { useSite } from '#client/lib/site.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/_auth/account_/messages')({
  loader: ({ context: { queryClient, trpc } }) =>
    Promise.all([
      queryClient.ensureQueryData(trpc.instructorMessages.mine.queryOptions()),
      queryClient.ensureQueryData(trpc.instructorMessages.mailSetting.queryOptions()),
    ]),
  head: () => ({ meta: [{ title: 'Messages with instructors | SkillForge' }] }),
  pendingComponent: () => <LoadingState label="Loading your messages…" />,
  errorComponent: routeError('Could not load your messages'),
  component: MessagesPage,
})

function DigestSetting() {
  const { trpc } = Route.useRouteContext()
  const { data } = useSuspenseQuery(trpc.instructorMessages.mailSetting.queryOptions())
  const save = useSaveMailSetting(trpc.instructorMessages.mailSetting.queryKey())
  return (
    <CheckboxField
      label="Send me one daily digest instead of an e-mail per message"
      checked={data.dailyDigest}
      // While saving it keeps the keyboard's focus (whilePending).
      {...whilePending(save.isPending, 'onChange', (event: ChangeEvent<HTMLInputElement>) =>
        save.mutate({ dailyDigest: event.target.checked }),
      )}
    />
  )
}

function MessagesPage() {
  const { trpc } = Route.useRouteContext()
  const { data: all } = useSuspenseQuery(trpc.instructorMessages.mine.queryOptions())
  const site = useSite()
  const threads = site ? all.filter((thread) => thread.school === site.slug) : all
  return (
    <main>
      <PageIntro title="Messages with instructors" />
      <Container className={css({ py: '8', display: 'flex', flexDir: 'column', gap: '6' })}>
        <SectionCard title="Conversations">
          {threads.length === 0 ? (
            <EmptyState title="No messages yet">
              <p>Write to an instructor from a course page: look for “Message the instructor”.</p>
            </EmptyState>
          ) : (
            <ul className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
              {threads.map((thread) => (
                <li key={thread.id} data-testid="conversation">
                  <Link to="/account/messages/$courseId" params={{ courseId: thread.courseId }} className={threadLink}>
                    {thread.courseTitle}: {thread.subject}
                  </Link>{' '}
                  {thread.unread > 0 ? (
                    <span className={css({ fontSize: 'sm', fontWeight: 'bold' })}>({thread.unread} unread)</span>
                  ) : null}
                  {thread.closed ? <span className={css({ fontSize: 'sm', color: 'fg.muted' })}> · Closed</span> : null}
                  <span className={css({ display: 'block', fontSize: 'xs', color: 'fg.muted' })}>
                    Last message {formatDate(thread.lastMessageAt, 'localTime')}
                  </span>
                </li>
              ))}
            </ul>
          )}
          {site ? (
            <ElsewhereNote
              site={site}
              count={all.length - threads.length}
              noun={['conversation with an instructor', 'conversations with instructors']}
              path="/account/messages"
              linkText="See all your messages"
              testId="messages-elsewhere"
            />
          ) : null}
        </SectionCard>
        <SectionCard title="E-mail">
          <DigestSetting />
        </SectionCard>
      </Container>
    </main>
  )
}

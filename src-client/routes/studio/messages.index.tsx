// /studio/messages: the inbox of a course's instructors (issue 34): conversations of every course they teach, newest
// first, with unread counts and filters; the daily digest setting. The server lists only their courses' threads.

import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import type { ChangeEvent } from 'react'
import { useState } from 'react'
import { InboxThreads } from '#client/components/instructor-messages/InboxThreads.tsx'
import { useSaveMailSetting } from '#client/components/instructor-messages/mail-setting.ts'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { borderedCard } from '#client/components/ui/card.ts'
import { CheckboxField, SelectField } from '#client/components/ui/form.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { whilePending } from '#client/lib/while-pending.ts'
import { css, cx } from '#styled-system/css'

type Filter = 'all' | 'unread' | 'open' | 'closed'

export const Route = createFileRoute('/studio/messages/')({
  loader: ({ context }) =>
    context.queryClient.ensureQueryData(context.trpc.instructorMessages.inbox.queryOptions({ filter: 'all' })),
  head: () => ({ meta: [{ title: 'Messages | SkillForge Studio' }] }),
  pendingComponent: () => <LoadingState label="Loading your messages…" />,
  errorComponent: routeError('Could not load your messages'),
  component: StudioMessages,
})

const card = cx(borderedCard, css({ p: '5' }))

function StudioMessages() {
  const { trpc } = Route.useRouteContext()
  const [filter, setFilter] = useState<Filter>('all')
  const inbox = useQuery({
    ...trpc.instructorMessages.inbox.queryOptions({ filter }),
    placeholderData: keepPreviousData,
  })
  const digest = useSaveMailSetting(trpc.instructorMessages.inbox.pathKey())
  return (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '5' })}>
      <PageIntro title="Messages">Learners’ messages about your courses.</PageIntro>
      <div className={css({ display: 'flex', gap: '4', flexWrap: 'wrap', alignItems: 'end' })}>
        <SelectField label="Show" value={filter} onChange={(event) => setFilter(event.target.value as Filter)}>
          <option value="all">All conversations</option>
          <option value="unread">Unread</option>
          <option value="open">Open</option>
          <option value="closed">Closed</option>
        </SelectField>
        {inbox.data ? (
          <CheckboxField
            label="One daily digest instead of an e-mail per message"
            checked={inbox.data.dailyDigest}
            // While saving it keeps the keyboard's focus (whilePending).
            {...whilePending(digest.isPending, 'onChange', (event: ChangeEvent<HTMLInputElement>) =>
              digest.mutate({ dailyDigest: event.target.checked }),
            )}
          />
        ) : null}
      </div>
      <section aria-label="Conversations" className={card}>
        <InboxThreads
          threads={inbox.data?.threads}
          failed={inbox.isError}
          empty={<p>Learners write to you from your course pages.</p>}
          link={(thread, className) => (
            <Link to="/studio/messages/$threadId" params={{ threadId: thread.id }} className={className}>
              {thread.subject}
            </Link>
          )}
        />
      </section>
    </main>
  )
}

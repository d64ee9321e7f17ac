// /studio/messages/$threadId: one conversation for the course's instructors (issue 34): answer, close or reopen,
// block or unblock the sender, report it to staff. Another course's thread is "not found" on the server.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { Composer, MessageList, ReportForm } from '#client/components/instructor-messages/Conversation.tsx'
import { useMarkRead } from '#client/components/instructor-messages/mark-read.ts'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { button } from '#client/components/ui/button.ts'
import { borderedCard } from '#client/components/ui/card.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { toastOutcome } from '#client/components/ui/toaster.tsx'
import { whilePending } from '#client/lib/while-pending.ts'
import { css, cx } from '#styled-system/css'

export const Route = createFileRoute('/studio/messages/$threadId')({
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(
      context.trpc.instructorMessages.thread.queryOptions({ threadId: params.threadId }),
    ),
  head: () => ({ meta: [{ title: 'Conversation | SkillForge Studio' }] }),
  pendingComponent: () => <LoadingState label="Loading the conversation…" />,
  errorComponent: routeError('Could not load this conversation'),
  component: StudioConversation,
})

const card = cx(borderedCard, css({ p: '5' }))

function StudioConversation() {
  const { trpc } = Route.useRouteContext()
  const { threadId } = Route.useParams()
  const queryClient = useQueryClient()
  const { data } = useSuspenseQuery(trpc.instructorMessages.thread.queryOptions({ threadId }))
  // Shown, so read: the inbox's unread counts follow (a hovered link, which loads this page's data, marks nothing).
  useMarkRead(threadId, data.messages, trpc.instructorMessages.inbox.pathKey())
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.instructorMessages.pathKey() })
  const done = (text: string) => toastOutcome(text, refresh)
  const reply = useMutation(trpc.instructorMessages.reply.mutationOptions(done('Answer sent')))
  const close = useMutation(trpc.instructorMessages.close.mutationOptions(done('Conversation updated')))
  const block = useMutation(trpc.instructorMessages.block.mutationOptions(done('Sender updated')))
  const report = useMutation(
    trpc.instructorMessages.report.mutationOptions(done('Reported. Our team will read this conversation.')),
  )
  return (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '5', maxW: '3xl' })}>
      <Link to="/studio/messages" className={css({ color: 'accent', fontSize: 'sm' })}>
        ← Inbox
      </Link>
      <PageIntro title={data.subject}>
        {data.member} · {data.courseTitle}
        {data.closed ? ' · Closed' : ''}
        {data.blocked ? ' · Sender blocked' : ''}
      </PageIntro>
      <section aria-label="Conversation" className={cx(card, css({ display: 'flex', flexDir: 'column', gap: '4' }))}>
        <MessageList messages={data.messages} />
        {data.closed ? (
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Closed: reopen it to answer.</p>
        ) : (
          <Composer
            courseId={data.courseId}
            label="Answer"
            sending={reply.isPending}
            onSend={(message) => reply.mutateAsync({ threadId, body: message.body, fileIds: message.fileIds })}
          />
        )}
      </section>
      {/* aria-disabled while saving, not disabled: each button keeps focus while its label turns (WCAG 2.4.3). */}
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'start' })}>
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          {...whilePending(close.isPending, 'onClick', () => close.mutate({ threadId, closed: !data.closed }))}
        >
          {data.closed ? 'Reopen conversation' : 'Close conversation'}
        </button>
        <button
          type="button"
          className={button({ variant: data.blocked ? 'outline' : 'danger', size: 'sm' })}
          {...whilePending(block.isPending, 'onClick', () => block.mutate({ threadId, blocked: !data.blocked }))}
        >
          {data.blocked ? 'Unblock sender' : 'Block sender'}
        </button>
        <ReportForm busy={report.isPending} onReport={(reason) => report.mutateAsync({ threadId, reason })} />
      </div>
    </main>
  )
}

// One conversation as those who answer it see it: the studio's (the course's instructors) and the admin's (staff, for
// a house course, decision 0140). Answer, close or reopen, block or unblock the sender, report it to staff; the
// server decides who may (a thread not theirs is "not found").
import type { QueryKey } from '@tanstack/react-query'
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Composer, MessageList, ReportForm } from '#client/components/instructor-messages/Conversation.tsx'
import { useMarkRead } from '#client/components/instructor-messages/mark-read.ts'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { button } from '#client/components/ui/button.ts'
import { borderedCard } from '#client/components/ui/card.ts'
import { toastOutcome } from '#client/components/ui/toaster.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { css, cx } from '#styled-system/css'

const card = cx(borderedCard, css({ p: '5' }))

/** Inside the page's own main landmark (the admin layout has one; the studio's page draws it). `back`: the link to
 * the inbox it came from; `inbox`: that inbox's query, whose unread counts reading changes. */
export function AnswerThread({ threadId, back, inbox }: { threadId: string; back: ReactNode; inbox: QueryKey }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const { data } = useSuspenseQuery(trpc.instructorMessages.thread.queryOptions({ threadId }))
  // Shown, so read: the inbox's unread counts follow (a hovered link, which loads this page's data, marks nothing).
  useMarkRead(threadId, data.messages, inbox)
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.instructorMessages.pathKey() }),
      queryClient.invalidateQueries({ queryKey: inbox }),
    ])
  const done = (text: string) => toastOutcome(text, refresh)
  const reply = useMutation(trpc.instructorMessages.reply.mutationOptions(done('Answer sent')))
  const close = useMutation(trpc.instructorMessages.close.mutationOptions(done('Conversation updated')))
  const block = useMutation(trpc.instructorMessages.block.mutationOptions(done('Sender updated')))
  const report = useMutation(
    trpc.instructorMessages.report.mutationOptions(done('Reported. Our team will read this conversation.')),
  )
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '5', maxW: '3xl' })}>
      {back}
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
    </div>
  )
}

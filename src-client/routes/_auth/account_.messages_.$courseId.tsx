// The member's conversation with a course's instructors (issue 34): readable always; the composer only while the
// member may write (Premium or holding the course, not blocked, not closed), else the server's reason.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { SectionCard } from '#client/components/account/SectionCard.tsx'
import { Composer, MessageList, ReportForm } from '#client/components/instructor-messages/Conversation.tsx'
import { useMarkRead } from '#client/components/instructor-messages/mark-read.ts'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { FormAlert } from '#client/components/ui/form.tsx'
import { Container } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/_auth/account_/messages_/$courseId')({
  loader: ({ context: { queryClient, trpc }, params }) =>
    queryClient.ensureQueryData(trpc.instructorMessages.conversation.queryOptions({ courseId: params.courseId })),
  head: () => ({ meta: [{ title: 'Message the instructor | SkillForge' }] }),
  pendingComponent: () => <LoadingState label="Loading the conversation…" />,
  errorComponent: routeError('Could not load this conversation'),
  component: ConversationPage,
})

function ConversationPage() {
  const { trpc } = Route.useRouteContext()
  const { courseId } = Route.useParams()
  const queryClient = useQueryClient()
  const { data } = useSuspenseQuery(trpc.instructorMessages.conversation.queryOptions({ courseId }))
  // Shown, so read: the list's unread counts follow (a hovered link, which loads this page's data, marks nothing).
  useMarkRead(data.thread?.id, data.thread?.messages ?? [], trpc.instructorMessages.mine.pathKey())
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.instructorMessages.pathKey() })
  const send = useMutation(
    trpc.instructorMessages.send.mutationOptions({
      onSuccess: async () => {
        notify('success', 'Message sent')
        await refresh()
      },
      onError: async (e) => {
        notifyError(e)
        await refresh()
      },
    }),
  )
  const report = useMutation(
    trpc.instructorMessages.report.mutationOptions({
      onSuccess: () => notify('success', 'Reported. Our team will read this conversation.'),
      onError: (e) => notifyError(e),
    }),
  )
  return (
    <main>
      <PageIntro title={data.thread?.subject ?? 'Message the instructor'}>
        <p>
          {data.course.title}
          {data.course.instructorName ? ` · ${data.course.instructorName}` : ''}
        </p>
      </PageIntro>
      <Container className={css({ py: '8', display: 'flex', flexDir: 'column', gap: '6', maxW: '3xl' })}>
        <Link to="/account/messages" className={css({ color: 'accent', fontSize: 'sm' })}>
          ← All conversations
        </Link>
        <SectionCard title="Conversation">
          <div className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
            {data.thread ? <MessageList messages={data.thread.messages} /> : null}
            {data.canSend ? (
              <Composer
                courseId={courseId}
                label="Write to the instructor"
                withSubject={!data.thread}
                sending={send.isPending}
                onSend={(message) => send.mutateAsync({ courseId, ...message })}
              />
            ) : (
              <div data-testid="messaging-refused">
                <FormAlert>{data.refusal}</FormAlert>
              </div>
            )}
            {data.thread ? (
              <ReportForm
                busy={report.isPending}
                onReport={(reason) => report.mutateAsync({ threadId: data.thread?.id ?? '', reason })}
              />
            ) : null}
          </div>
        </SectionCard>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          We e-mail you when the instructor answers, with a link back here. Replies by e-mail are not read.
        </p>
      </Container>
    </main>
  )
}

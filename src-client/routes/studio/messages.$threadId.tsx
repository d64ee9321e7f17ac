// /studio/messages/$threadId: one conversation for the course's instructors (issue 34): answer, close or reopen,
// block or unblock the sender, report it to staff. Another course's thread is "not found" on the server.
import { createFileRoute, Link } from '@tanstack/react-router'
import { AnswerThread } from '#client/components/instructor-messages/AnswerThread.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { css } from '#styled-system/css'

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

function StudioConversation() {
  const { trpc } = Route.useRouteContext()
  const { threadId } = Route.useParams()
  return (
    <main>
      <AnswerThread
        threadId={threadId}
        inbox={trpc.instructorMessages.inbox.pathKey()}
        back={
          <Link to="/studio/messages" className={css({ color: 'accent', fontSize: 'sm' })}>
            ← Inbox
          </Link>
        }
      />
    </main>
  )
}

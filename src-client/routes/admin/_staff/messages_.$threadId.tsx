// /admin/messages/$threadId: a house course's conversation, which staff (editors and up) answer as its instructors
// would (decision 0140). Any other course's thread is "not found" on the server: its instructors answer it.
import { createFileRoute, Link } from '@tanstack/react-router'
import { AnswerThread } from '#client/components/instructor-messages/AnswerThread.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/messages_/$threadId')({
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(
      context.trpc.instructorMessages.thread.queryOptions({ threadId: params.threadId }),
    ),
  head: () => ({ meta: [{ title: 'Conversation | SkillForge Admin' }] }),
  pendingComponent: () => <LoadingState label="Loading the conversation…" />,
  errorComponent: routeError('Could not load this conversation'),
  component: HouseConversation,
})

function HouseConversation() {
  const { trpc } = Route.useRouteContext()
  const { threadId } = Route.useParams()
  return (
    <AnswerThread
      threadId={threadId}
      inbox={trpc.admin.instructorMessages.houseInbox.pathKey()}
      back={
        <Link to="/admin/messages" className={css({ color: 'accent', fontSize: 'sm' })}>
          ← Messages
        </Link>
      }
    />
  )
}

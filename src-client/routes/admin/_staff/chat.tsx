// The live chat desk (decision 0099): open chats, those waiting for someone first; a chat opened beside the queue
// with its messages as they arrive. Editors and up take a chat (answering a waiting one takes it too), answer and
// end it; admins may take over one another staff member holds. The server checks every role and who holds a chat.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { type ChangeEvent, useEffect, useState } from 'react'
import { PagedList } from '#client/components/admin/AdminTable.tsx'
import { FilterSelect } from '#client/components/admin/StatusFilter.tsx'
import { atPage, optionalEnum, optionalPage, optionalText, searchParams } from '#client/components/admin/search.ts'
import { pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { useStaff } from '#client/components/admin/use-staff.ts'
import { ChatMessages } from '#client/components/live-chat/ChatMessages.tsx'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { CheckboxField } from '#client/components/ui/form.tsx'
import { MessageComposer } from '#client/components/ui/MessageComposer.tsx'
import { panel } from '#client/components/ui/panel.ts'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { notifyError, reloadThenToast } from '#client/components/ui/toaster.tsx'
import { loadList } from '#client/lib/list-loader.ts'
import type { Trpc } from '#client/lib/trpc.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'

/** The queue is asked again this often, an open chat's messages more often. */
const QUEUE_POLL_MS = 5000
const CHAT_POLL_MS = 3000
const DESK_HEARTBEAT_MS = 30_000

type DeskSearch = { status?: 'ended'; page?: number; id?: string }
const queueQuery = (trpc: Trpc, { status, page = 1 }: Pick<DeskSearch, 'status' | 'page'>) =>
  trpc.admin.liveChat.queue.queryOptions({ status: status ? 'closed' : 'open', page })

const routeSearch = searchParams({ status: optionalEnum(['ended'] as const), page: optionalPage, id: optionalText })

export const Route = createFileRoute('/admin/_staff/chat')({
  head: () => ({ meta: [{ title: 'Live chat | SkillForge Admin' }] }),
  validateSearch: routeSearch,
  loaderDeps: ({ search: { status, page } }) => ({ status, page }),
  loader: ({ context, deps, cause }) => loadList(context.queryClient, queueQuery(context.trpc, deps), cause),
  pendingComponent: () => <LoadingState label="Loading live chats…" />,
  errorComponent: routeError('Could not load live chats'),
  component: ChatDesk,
})

type QueueRow = RouterOutputs['admin']['liveChat']['queue']['items'][number]

/**
 * While someone who may answer has the desk open and is available, the server hears so every 30 s, and /contact says the
 * team is online (decision 0102). A missed beat only means the page says the team is away. The beat never changes
 * their availability (the server keeps it), so a late beat cannot make someone who just stepped away present again.
 */
function useDeskHeartbeat(enabled: boolean) {
  const { trpc } = Route.useRouteContext()
  const { mutateAsync: markAtDesk } = useMutation(trpc.admin.liveChat.atDesk.mutationOptions())
  useEffect(() => {
    if (!enabled) return
    const beat = () => void markAtDesk().catch(() => undefined)
    beat()
    const timer = setInterval(beat, DESK_HEARTBEAT_MS)
    return () => clearInterval(timer)
  }, [enabled, markAtDesk])
}

/**
 * "Available for chats": the staff member's own choice, kept by the server until they change it (a return to the desk
 * keeps it). Unticked, /contact stops counting them at once; ticked, from now.
 */
function AvailableSwitch() {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const availability = useQuery(trpc.admin.liveChat.availability.queryOptions())
  const key = trpc.admin.liveChat.availability.queryKey()
  // The box shows the press at once (a controlled box waiting for the query's next render would flip back first),
  // then what the server kept.
  const [pressed, setPressed] = useState<boolean | null>(null)
  const change = useMutation(
    trpc.admin.liveChat.setAvailable.mutationOptions({
      onSuccess: (kept) => queryClient.setQueryData(key, kept),
      onError: (error) => {
        notifyError(error)
        return queryClient.invalidateQueries({ queryKey: key })
      },
      onSettled: () => setPressed(null),
    }),
  )
  const available = pressed ?? availability.data?.available ?? false
  useDeskHeartbeat(availability.data !== undefined && available)
  return (
    <CheckboxField
      label="Available for chats"
      checked={available}
      {...whilePending(!availability.data || change.isPending, 'onChange', (event: ChangeEvent<HTMLInputElement>) => {
        setPressed(event.target.checked)
        change.mutate({ available: event.target.checked })
      })}
    />
  )
}

function ChatDesk() {
  const { trpc } = Route.useRouteContext()
  const { can } = useStaff()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const queue = useQuery({
    ...queueQuery(trpc, search),
    placeholderData: keepPreviousData,
    refetchInterval: QUEUE_POLL_MS,
  })
  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Live chat</h1>
        {can('editor') ? <AvailableSwitch /> : null}
        <FilterSelect label="Chats" value={search.status} onChange={(status) => void navigate({ search: { status } })}>
          <option value="">Open, waiting first</option>
          <option value="ended">Ended</option>
        </FilterSelect>
      </div>
      <div
        className={css({
          display: 'grid',
          gap: '6',
          gridTemplateColumns: { base: '1fr', lg: 'minmax(0, 2fr) minmax(0, 3fr)' },
          alignItems: 'start',
        })}
      >
        <section aria-label="Chat queue">
          <PagedList
            query={queue}
            loading="Loading live chats…"
            failed="Could not load live chats"
            empty={search.status ? 'No ended chats yet' : 'No open chats: nobody is waiting'}
            onPage={(page) => void navigate({ search: atPage(page) })}
          >
            {(data) => (
              <ul className={css({ display: 'grid', gap: '2' })}>
                {data.items.map((row) => (
                  <QueueItem key={row.id} row={row} selected={row.id === search.id} search={search} />
                ))}
              </ul>
            )}
          </PagedList>
        </section>
        {search.id ? (
          <ChatPanel id={search.id} />
        ) : (
          <p className={css({ color: 'fg.muted' })}>Open a chat to read and answer it.</p>
        )}
      </div>
    </>
  )
}

/** One chat in the queue: the member, since when, who holds it, and whether a reply is owed. */
function QueueItem({ row, selected, search }: { row: QueueRow; selected: boolean; search: DeskSearch }) {
  return (
    <li data-testid="chat-row">
      <Link
        from={Route.fullPath}
        search={{ status: search.status, page: search.page, id: row.id }}
        aria-current={selected ? 'true' : undefined}
        className={css({
          display: 'grid',
          gap: '1',
          p: '3',
          borderRadius: 'control',
          borderWidth: '1px',
          borderColor: selected ? 'accent' : 'line',
          _hover: { bg: 'brand.50' },
        })}
      >
        <strong>{row.memberName}</strong>
        <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {row.endedAt
            ? `Ended ${formatDate(row.endedAt, 'mediumTime')}`
            : `Since ${formatDate(row.startedAt, 'mediumTime')}`}
        </span>
        <span className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          {row.endedAt ? (
            row.endedBy === 'inbox' ? (
              <span className={badge({ tone: 'grey' })}>In the support inbox</span>
            ) : null
          ) : row.assignedTo ? (
            <span className={badge({ tone: 'grey' })}>With {row.assignedTo}</span>
          ) : (
            <span className={badge({ tone: 'red' })}>Waiting</span>
          )}
          {row.replyOwed ? <span className={badge({ tone: 'blue' })}>Reply owed</span> : null}
          {row.visitor ? <span className={badge({ tone: 'grey' })}>Visitor</span> : null}
        </span>
      </Link>
    </li>
  )
}

/** Who ended a chat; a chat nobody joined went to the support inbox as a message (decision 0101). */
function endedBy(by: QueueRow['endedBy']) {
  if (by === 'inbox') return 'left in the support inbox, nobody having joined,'
  return `ended by the ${by === 'staff' ? 'staff' : 'member'}`
}

/** The opened chat: its member, who holds it, the messages, and what this staff member may do with it. */
function ChatPanel({ id }: { id: string }) {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const { me, can } = useStaff()
  const chat = useQuery({
    ...trpc.admin.liveChat.conversation.queryOptions({ id }),
    refetchInterval: (query) => (query.state.data?.endedAt ? false : CHAT_POLL_MS),
  })
  const reload = () => queryClient.invalidateQueries({ queryKey: trpc.admin.liveChat.pathKey() })
  const take = useMutation(trpc.admin.liveChat.take.mutationOptions(reloadThenToast(reload, 'You have the chat')))
  const end = useMutation(trpc.admin.liveChat.end.mutationOptions(reloadThenToast(reload, 'Chat ended')))
  const reply = useMutation(trpc.admin.liveChat.reply.mutationOptions({ onSuccess: reload }))

  if (chat.isPending) return <LoadingState label="Loading the chat…" />
  if (chat.isError) {
    return <ErrorState title="Could not load the chat" error={chat.error} onRetry={() => void chat.refetch()} />
  }
  const data = chat.data
  const mine = data.assignedToId === me.id
  const canAnswer = can('editor') && !data.endedAt && (mine || !data.assignedToId)
  const canTakeOver = can('admin') && !data.endedAt && data.assignedToId !== null && !mine
  return (
    <section aria-labelledby="chat-title" className={`${panel} ${css({ display: 'grid', gap: '3' })}`}>
      <h2 id="chat-title" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
        Chat with {data.memberName}
      </h2>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })} data-testid="chat-holder">
        {data.visitor ? `Visitor, not signed in: ${data.memberEmail} (as they typed it)` : data.memberEmail} · started{' '}
        {formatDate(data.startedAt, 'mediumTime')} ·{' '}
        {data.endedAt
          ? `${endedBy(data.endedBy)} ${formatDate(data.endedAt, 'mediumTime')}`
          : data.assignedTo
            ? `with ${mine ? 'you' : data.assignedTo}`
            : 'waiting for someone to take it'}
      </p>
      <ChatMessages messages={data.messages} mine={(message) => message.fromStaff} />
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        {can('editor') && !data.endedAt && !data.assignedToId ? (
          <button
            type="button"
            className={button()}
            {...whilePending(take.isPending, 'onClick', () => take.mutate({ id }))}
          >
            Take chat
          </button>
        ) : null}
        {canTakeOver ? (
          <button
            type="button"
            className={button({ variant: 'outline' })}
            {...whilePending(take.isPending, 'onClick', () => take.mutate({ id }))}
          >
            Take over
          </button>
        ) : null}
        {can('editor') && !data.endedAt && (mine || !data.assignedToId || can('admin')) ? (
          <button
            type="button"
            className={button({ variant: 'ghost' })}
            {...whilePending(end.isPending, 'onClick', () => end.mutate({ id }))}
          >
            End chat
          </button>
        ) : null}
      </div>
      {canAnswer ? (
        <MessageComposer
          enterSends
          maxLength={2000}
          label="Answer the member"
          field="Your answer"
          submit="Send"
          sending={reply.isPending}
          onSend={(body) => reply.mutateAsync({ id, body })}
        />
      ) : null}
    </section>
  )
}

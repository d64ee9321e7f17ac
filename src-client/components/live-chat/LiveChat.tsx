// Live chat on /contact (decision 0099): in the staffed hours a signed-in member starts a chat, sees the staff's
// answers as they come (the page asks every few seconds while a chat is open) and ends it; the transcript is mailed
// to them. A visitor who is not signed in starts one with their name and address (decision 0103; no transcript).
// Outside the hours the panel says when the chat opens and points to the form. A chat nobody has joined can be left
// as a message to the support inbox (decision 0101).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useSession } from '#client/lib/session.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { contentHeading } from '../ui/layout.tsx'
import { MessageComposer } from '../ui/MessageComposer.tsx'
import { ErrorState, Spinner } from '../ui/states.tsx'
import { notify, notifyError } from '../ui/toaster.tsx'
import { ChatMessages } from './ChatMessages.tsx'
import { VisitorChatStart } from './VisitorChatStart.tsx'

type Chat = NonNullable<RouterOutputs['liveChat']['mine']['chat']>
type Availability = RouterOutputs['liveChat']['availability']

const card = css({ bg: 'surface', p: '6', borderRadius: 'card', boxShadow: 'card', display: 'grid', gap: '3' })
const note = css({ color: 'fg.muted', fontSize: 'sm' })
const inlineLink = css({ color: 'accent', textDecoration: 'underline' })
/** While a chat is open the page asks for new messages this often; otherwise only whether the hours changed. */
const OPEN_CHAT_POLL_MS = 3000
const IDLE_POLL_MS = 60_000
/** In the hours with nobody at the desk (decision 0102): the page does not claim anyone is online. */
const AWAY = 'Our team is away from the chat right now.'

export function LiveChat() {
  const { user, isLoading } = useSession()
  return (
    <section id="live-chat" aria-labelledby="live-chat-title" className={card} data-testid="live-chat">
      <h2 id="live-chat-title" className={contentHeading}>
        Chat with us
      </h2>
      {isLoading ? <Spinner label="Loading the chat" /> : <AskerChat signedIn={Boolean(user)} />}
    </section>
  )
}

function ClosedNote({ availability }: { availability: Availability }) {
  return (
    <p className={note} data-testid="chat-closed">
      Live chat is closed now; it opens {availability.opens}.{' '}
      <a href="#form-title" className={inlineLink}>
        Send us a message
      </a>{' '}
      instead and we will reply by e-mail.
    </p>
  )
}

/** The member's or visitor's chat, or a way to start one (a visitor names themselves first). */
function AskerChat({ signedIn }: { signedIn: boolean }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  // An ended chat stays on screen until the member starts afresh.
  const [dismissed, setDismissed] = useState<string | null>(null)
  const mine = useQuery({
    ...trpc.liveChat.mine.queryOptions(),
    refetchInterval: (query) =>
      query.state.data?.chat && !query.state.data.chat.endedAt ? OPEN_CHAT_POLL_MS : IDLE_POLL_MS,
  })
  const reload = () => queryClient.invalidateQueries({ queryKey: trpc.liveChat.mine.queryKey() })
  const start = useMutation(trpc.liveChat.start.mutationOptions({ onSuccess: reload }))
  if (mine.isPending) return <Spinner label="Loading your chat" />
  if (mine.isError) {
    return <ErrorState title="Could not load the chat" error={mine.error} onRetry={() => void mine.refetch()} />
  }
  const { availability, chat } = mine.data
  if (chat && chat.id !== dismissed) {
    return <ChatWindow chat={chat} canStartAgain={availability.open} onStartAgain={() => setDismissed(chat.id)} />
  }
  if (!availability.open) return <ClosedNote availability={availability} />
  return (
    <>
      <p className={note}>
        {availability.staffed
          ? 'Our team is online now. Ask your question and someone will answer here in a few minutes.'
          : `${AWAY} Ask your question: someone will answer here when they are back, or by e-mail if nobody joins before closing.`}
      </p>
      {signedIn ? (
        <MessageComposer
          enterSends
          maxLength={2000}
          label="Start a chat"
          field="Your question"
          submit="Start chat"
          sending={start.isPending}
          onSend={(message) => start.mutateAsync({ message })}
        />
      ) : (
        <VisitorChatStart onStarted={reload} />
      )}
    </>
  )
}

/** What an ended chat says: who ended it, where the conversation goes on, and whether its transcript was mailed. */
function endedNote(chat: Chat) {
  if (chat.endedBy === 'inbox') {
    return 'Nobody from our team could join, so your question is in our support inbox: we will answer by e-mail.'
  }
  const ended = `This chat has ended${chat.endedBy === 'staff' ? ' (our team closed it)' : ''}.`
  return chat.mailed ? `${ended} We are e-mailing you the transcript.` : ended
}

function ChatWindow({
  chat,
  canStartAgain,
  onStartAgain,
}: {
  chat: Chat
  canStartAgain: boolean
  onStartAgain: () => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const reload = () => queryClient.invalidateQueries({ queryKey: trpc.liveChat.mine.queryKey() })
  const send = useMutation(trpc.liveChat.send.mutationOptions({ onSuccess: reload }))
  const end = useMutation(
    trpc.liveChat.end.mutationOptions({ onSuccess: reload, onError: (error) => notifyError(error) }),
  )
  const leave = useMutation(
    trpc.liveChat.leaveMessage.mutationOptions({
      onSuccess: () => {
        notify('success', 'Your question is in our support inbox: we will answer by e-mail.')
        return reload()
      },
      // Someone joined meanwhile: the chat is theirs now, so show it.
      onError: (error) => {
        notifyError(error)
        return reload()
      },
    }),
  )
  return (
    <>
      <p className={note} role="status" data-testid="chat-status">
        {chat.endedAt
          ? endedNote(chat)
          : chat.waiting
            ? 'Waiting for a member of our team to join…'
            : 'You are chatting with our team.'}
      </p>
      <ChatMessages messages={chat.messages} mine={(message) => !message.fromStaff} />
      {chat.endedAt ? (
        canStartAgain ? (
          <div>
            <button type="button" className={button({ variant: 'outline' })} onClick={onStartAgain}>
              Start a new chat
            </button>
          </div>
        ) : null
      ) : (
        <>
          <MessageComposer
            enterSends
            maxLength={2000}
            label="Chat message"
            field="Write in the chat"
            submit="Send"
            sending={send.isPending}
            onSend={(body) => send.mutateAsync({ conversationId: chat.id, body })}
          />
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
            {chat.waiting ? (
              <button
                type="button"
                className={button({ variant: 'outline', size: 'sm' })}
                {...whilePending(leave.isPending, 'onClick', () => leave.mutate({ id: chat.id }))}
              >
                Leave it as a message
              </button>
            ) : null}
            <button
              type="button"
              className={button({ variant: 'ghost', size: 'sm' })}
              {...whilePending(end.isPending, 'onClick', () => end.mutate({ id: chat.id }))}
            >
              End chat
            </button>
          </div>
          {chat.waiting ? (
            <p className={note}>
              Nobody free yet? Leave it as a message and we will answer by e-mail; at closing time we do so for you.
            </p>
          ) : null}
        </>
      )}
    </>
  )
}

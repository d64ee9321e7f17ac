// A live chat's messages, oldest first, read out as they arrive (aria-live): the reader's own tinted.
import { css } from '#styled-system/css'
import { MessageItem } from '../service-orders/MessageItem.tsx'

interface ChatMessage {
  id: string
  body: string
  fromStaff: boolean
  author: string
  createdAt: string
}

export function ChatMessages<Message extends ChatMessage>({
  messages,
  mine,
}: {
  messages: Message[]
  /** Whether the reader wrote it. */
  mine: (message: Message) => boolean
}) {
  return (
    <ol aria-label="Chat messages" aria-live="polite" className={css({ display: 'grid', gap: '2' })}>
      {messages.map((message) => (
        <MessageItem
          key={message.id}
          testId="chat-message"
          from={mine(message) ? 'mine' : 'other'}
          sender={message.author}
          createdAt={message.createdAt}
          body={message.body}
          files={[]}
        />
      ))}
    </ol>
  )
}

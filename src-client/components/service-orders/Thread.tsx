// The message thread of a service order, for the buyer and for staff (who also see and write internal notes).
import { useState } from 'react'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { MESSAGE_MAX_LENGTH } from '#shared/service-orders.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { CheckboxField, messageArea, TextAreaField } from '../ui/form.tsx'
import { AttachedFiles, type OrderFile } from './files.tsx'
import { MessageItem } from './MessageItem.tsx'

export interface ThreadMessage {
  id: string
  fromStaff: boolean
  internal: boolean
  body: string
  author: string
  createdAt: string
  files: OrderFile[]
}

/**
 * The id of the newest message from the other side (the team's for the buyer, the buyer's for staff): what the
 * order's page marks read once it shows the thread (useMarkRead). Undefined when there is none.
 */
export function newestFromOtherSide(messages: readonly ThreadMessage[], viewer: 'buyer' | 'staff') {
  return messages.findLast((message) => message.fromStaff === (viewer === 'buyer') && !message.internal)?.id
}

export interface SendMessage {
  body: string
  fileIds: string[]
  internal: boolean
}

export function Thread({
  orderId,
  messages,
  viewer,
  onSend,
  sending,
  canPost,
}: {
  orderId: string
  messages: ThreadMessage[]
  viewer: 'buyer' | 'staff'
  onSend: (message: SendMessage) => Promise<unknown>
  sending: boolean
  canPost: boolean
}) {
  const [body, setBody] = useState('')
  const [files, setFiles] = useState<OrderFile[]>([])
  const [internal, setInternal] = useState(false)
  const mine = (m: ThreadMessage) => (viewer === 'staff') === m.fromStaff
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
      {messages.length === 0 ? (
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>No messages yet.</p>
      ) : (
        <ol className={css({ display: 'flex', flexDir: 'column', gap: '3' })} data-testid="thread">
          {messages.map((message) => (
            <MessageItem
              key={message.id}
              testId={message.internal ? 'internal-note' : 'message'}
              from={message.internal ? 'internal' : mine(message) ? 'mine' : 'other'}
              sender={
                <>
                  {message.internal ? 'Internal note · ' : ''}
                  {message.author || (message.fromStaff ? 'SkillForge team' : 'Customer')}
                </>
              }
              createdAt={message.createdAt}
              body={message.body}
              files={message.files}
            />
          ))}
        </ol>
      )}
      {canPost ? (
        <form
          {...SCRIPT_ONLY_FORM}
          className={css({ display: 'flex', flexDir: 'column', gap: '2' })}
          onSubmit={async (event) => {
            event.preventDefault()
            if (!body.trim()) return
            // Send keeps the focus while sending (aria-disabled, whilePending); the message box takes it back, sent
            // or refused (the text is then kept), ready for the next message.
            const box = event.currentTarget.querySelector('textarea')
            try {
              await onSend({ body, fileIds: files.map((f) => f.id), internal })
              setBody('')
              setFiles([])
              setInternal(false)
            } finally {
              box?.focus()
            }
          }}
        >
          <TextAreaField
            label={viewer === 'staff' ? 'Message or note' : 'Message'}
            className={css({ display: 'flex', flexDir: 'column', gap: '2' })}
            controlClassName={messageArea}
            value={body}
            maxLength={MESSAGE_MAX_LENGTH}
            onChange={(event) => setBody(event.target.value)}
          />
          <AttachedFiles orderId={orderId} purpose="message" label="Attach a file" files={files} setFiles={setFiles} />
          {viewer === 'staff' ? (
            <CheckboxField
              label="Internal note (staff only)"
              checked={internal}
              onChange={(event) => setInternal(event.target.checked)}
            />
          ) : null}
          <div>
            <button type="submit" className={button()} {...submitWhilePending(sending || !body.trim())}>
              {sending ? 'Sending…' : internal ? 'Add note' : 'Send message'}
            </button>
          </div>
        </form>
      ) : null}
    </div>
  )
}

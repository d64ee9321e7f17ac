// A conversation between a member and a course's instructors (issue 34): the messages, their attachments, and a
// composer with files uploaded before sending (checked again by the server by their bytes). Shared by the member's
// page, the studio inbox and the staff's reported-thread view (read only there).
import { useState } from 'react'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { pickWhilePending, submitWhilePending } from '#client/lib/while-pending.ts'
import { MESSAGE_FILE_ACCEPT, MESSAGE_FILE_MAX_BYTES, MESSAGE_MAX_FILES } from '#shared/schemas/instructor-messages.ts'
import { css } from '#styled-system/css'
import { FileLinks } from '../service-orders/files.tsx'
import { MessageItem } from '../service-orders/MessageItem.tsx'
import { button } from '../ui/button.ts'
import { messageArea, TextAreaField, TextField } from '../ui/form.tsx'
import { uploadFile } from '../ui/upload-file.ts'

export interface ConversationFile {
  id: string
  name: string
  sizeBytes: number
  url: string
}
export interface ConversationMessage {
  id: string
  body: string
  author: string
  fromInstructor: boolean
  mine: boolean
  createdAt: string
  files: ConversationFile[]
}

async function uploadConversationFile(courseId: string, file: File): Promise<ConversationFile | null> {
  const stored = await uploadFile<ConversationFile>(
    `/api/instructor-messages/${encodeURIComponent(courseId)}/files`,
    file,
    {
      maxBytes: MESSAGE_FILE_MAX_BYTES,
      tooLarge: 'Files can be at most 10 MB',
      failed: 'The file could not be uploaded',
    },
  )
  return stored && { ...stored, url: `/api/instructor-messages/files/${stored.id}` }
}

export function MessageList({ messages }: { messages: ConversationMessage[] }) {
  if (messages.length === 0) return <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>No messages yet.</p>
  return (
    <ol className={css({ display: 'flex', flexDir: 'column', gap: '3' })} aria-label="Messages">
      {messages.map((message) => (
        <MessageItem
          key={message.id}
          testId="message"
          from={message.mine ? 'mine' : 'other'}
          sender={
            <>
              {message.author || (message.fromInstructor ? 'Instructor' : 'Learner')}
              {message.fromInstructor ? ' (instructor)' : ''}
            </>
          }
          createdAt={message.createdAt}
          body={message.body}
          files={message.files}
        />
      ))}
    </ol>
  )
}

export function Composer({
  courseId,
  label,
  withSubject,
  sending,
  onSend,
}: {
  courseId: string
  label: string
  withSubject?: boolean
  sending: boolean
  onSend: (message: { subject?: string; body: string; fileIds: string[] }) => Promise<unknown>
}) {
  const [subject, setSubject] = useState('')
  const [body, setBody] = useState('')
  const [files, setFiles] = useState<ConversationFile[]>([])
  const [uploading, setUploading] = useState(false)
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      aria-label={label}
      className={css({ display: 'flex', flexDir: 'column', gap: '3' })}
      onSubmit={async (event) => {
        event.preventDefault()
        if (!body.trim()) return
        // Send keeps the focus while sending (aria-disabled, whilePending); the message box takes it back, sent or
        // refused, ready for the next message.
        const box = event.currentTarget.querySelector('textarea')
        try {
          await onSend({ subject: subject.trim() || undefined, body, fileIds: files.map((f) => f.id) })
          setBody('')
          setSubject('')
          setFiles([])
        } catch {
          // The mutation's own error toast says why; the text stays for another try.
        } finally {
          box?.focus()
        }
      }}
    >
      {withSubject ? (
        <TextField
          label="Subject"
          value={subject}
          maxLength={200}
          onChange={(event) => setSubject(event.target.value)}
        />
      ) : null}
      <TextAreaField
        label="Your message"
        controlClassName={messageArea}
        value={body}
        maxLength={5000}
        required
        onChange={(event) => setBody(event.target.value)}
      />
      <FileLinks files={files} onRemove={(file) => setFiles(files.filter((f) => f.id !== file.id))} />
      {files.length < MESSAGE_MAX_FILES ? (
        <TextField
          label="Attach a file"
          type="file"
          accept={MESSAGE_FILE_ACCEPT}
          hint={uploading ? 'Uploading…' : 'PDF, images or office documents, up to 10 MB'}
          {...pickWhilePending(uploading, async (event) => {
            const input = event.currentTarget
            const file = input.files?.[0]
            if (!file) return
            setUploading(true)
            const stored = await uploadConversationFile(courseId, file)
            setUploading(false)
            input.value = ''
            if (stored) setFiles((current) => [...current, stored])
          })}
        />
      ) : null}
      <div>
        <button type="submit" className={button()} {...submitWhilePending(sending || uploading || !body.trim())}>
          {sending ? 'Sending…' : 'Send message'}
        </button>
      </div>
    </form>
  )
}

/** Reporting a conversation to staff: a reason, then a confirmation. */
export function ReportForm({ onReport, busy }: { onReport: (reason: string) => Promise<unknown>; busy: boolean }) {
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState('')
  if (!open) {
    return (
      <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => setOpen(true)}>
        Report this conversation
      </button>
    )
  }
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      aria-label="Report this conversation"
      className={css({ display: 'flex', flexDir: 'column', gap: '2' })}
      onSubmit={async (event) => {
        event.preventDefault()
        if (!reason.trim()) return
        try {
          await onReport(reason.trim())
        } catch {
          return // The mutation's own error toast says why; the reason stays for another try.
        }
        setOpen(false)
        setReason('')
      }}
    >
      <TextAreaField
        label="What is wrong?"
        controlClassName={messageArea}
        value={reason}
        maxLength={500}
        required
        onChange={(event) => setReason(event.target.value)}
      />
      <div className={css({ display: 'flex', gap: '2' })}>
        <button type="submit" className={button({ size: 'sm' })} {...submitWhilePending(busy || !reason.trim())}>
          Send report
        </button>
        <button type="button" className={button({ variant: 'ghost', size: 'sm' })} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  )
}

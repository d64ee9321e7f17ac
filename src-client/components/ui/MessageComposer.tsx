// A message box with its Send button: the live chat's (the member's on /contact, the staff's on /admin/chat), where
// Enter sends and Shift+Enter starts a new line, and the support inbox's answer, where Enter is a new line. A refused
// message keeps its text for another try, and the box keeps the focus.
import { type KeyboardEvent, useState } from 'react'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { css } from '#styled-system/css'
import { button } from './button.ts'
import { messageArea, TextAreaField } from './form.tsx'
import { notifyError } from './toaster.tsx'

/** A chat box's keys: Enter sends its form, Shift+Enter starts a new line (the visitor's chat form uses it too). */
export function sendOnEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
    event.preventDefault()
    event.currentTarget.form?.requestSubmit()
  }
}

export function MessageComposer({
  label,
  field,
  submit,
  sending,
  onSend,
  enterSends = false,
  maxLength,
}: {
  label: string
  field: string
  submit: string
  sending: boolean
  onSend: (text: string) => Promise<unknown>
  /** A chat's box: Enter sends, Shift+Enter is a new line. */
  enterSends?: boolean
  maxLength: number
}) {
  const [text, setText] = useState('')
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      aria-label={label}
      className={css({ display: 'grid', gap: '2' })}
      onSubmit={async (event) => {
        event.preventDefault()
        if (!text.trim() || sending) return
        const box = event.currentTarget.querySelector('textarea')
        try {
          await onSend(text)
          setText('')
        } catch (error) {
          notifyError(error, 'Your message was not sent') // the text stays for another try
        } finally {
          box?.focus()
        }
      }}
    >
      <TextAreaField
        label={field}
        controlClassName={messageArea}
        value={text}
        maxLength={maxLength}
        rows={enterSends ? 3 : 6}
        required
        onChange={(event) => setText(event.target.value)}
        onKeyDown={enterSends ? sendOnEnter : undefined}
      />
      <div>
        <button type="submit" className={button()} {...submitWhilePending(sending || !text.trim())}>
          {sending ? 'Sending…' : submit}
        </button>
      </div>
    </form>
  )
}

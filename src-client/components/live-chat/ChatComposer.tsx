// The live chat's message box, the member's (/contact) and the staff's (/admin/chat): Send or Enter sends, Shift+Enter
// starts a new line; a refused message keeps its text for another try and the box keeps the focus.
import { useState } from 'react'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { messageArea, TextAreaField } from '../ui/form.tsx'
import { notifyError } from '../ui/toaster.tsx'

/** The chat's message box: sends on Send (or Enter without Shift), keeps the text when the server refuses it. */
export function ChatComposer({
  label,
  field,
  submit,
  sending,
  onSend,
}: {
  label: string
  field: string
  submit: string
  sending: boolean
  onSend: (text: string) => Promise<unknown>
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
        maxLength={2000}
        rows={3}
        required
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault()
            event.currentTarget.form?.requestSubmit()
          }
        }}
      />
      <div>
        <button type="submit" className={button()} {...submitWhilePending(sending || !text.trim())}>
          {sending ? 'Sending…' : submit}
        </button>
      </div>
    </form>
  )
}

// A visitor's first chat message (decision 0103): their name and address, checked as on the contact form, and their
// question. The server then holds the chat for this browser by an HttpOnly cookie, and the panel shows it as it shows
// a member's. In the question box Enter sends and Shift+Enter starts a new line, as in the member's chat box.
import { useMutation } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { firstIssueByField } from '#shared/native-form.ts'
import { startVisitorChatInput } from '#shared/schemas/live-chat.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { serverFieldErrors } from '../ui/field-errors.tsx'
import { EmailField, TextAreaField, TextField, useFocusFirstInvalid } from '../ui/form.tsx'
import { sendOnEnter } from '../ui/MessageComposer.tsx'
import { notifyError } from '../ui/toaster.tsx'

type Errors = Partial<Record<'name' | 'email' | 'message', string>>

const note = css({ color: 'fg.muted', fontSize: 'sm' })
const inlineLink = css({ color: 'accent', textDecoration: 'underline' })

export function VisitorChatStart({ onStarted }: { onStarted: () => void }) {
  const trpc = useTRPC()
  const [errors, setErrors] = useState<Errors>({})
  const formRef = useFocusFirstInvalid(errors)
  const start = useMutation(
    trpc.liveChat.startAsVisitor.mutationOptions({
      onSuccess: onStarted,
      onError: (error) => {
        const fieldErrors = serverFieldErrors(error)
        if (fieldErrors) setErrors(fieldErrors as Errors)
        notifyError(error, 'Could not start the chat', errorMessage(error))
      },
    }),
  )
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    // Enter in the question box sends the form itself (requestSubmit), past the button's pending guard.
    if (start.isPending) return
    const fields = new FormData(event.currentTarget)
    const parsed = startVisitorChatInput.safeParse({
      name: fields.get('name'),
      email: fields.get('email'),
      message: fields.get('message'),
    })
    if (!parsed.success) {
      setErrors(firstIssueByField(parsed.error.issues) as Errors)
      return
    }
    setErrors({})
    start.mutate(parsed.data)
  }
  return (
    <form
      ref={formRef}
      {...SCRIPT_ONLY_FORM}
      noValidate
      onSubmit={submit}
      aria-label="Start a chat"
      className={css({ display: 'grid', gap: '3' })}
    >
      <div className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } })}>
        <TextField label="Name" name="name" autoComplete="name" maxLength={100} error={errors.name} />
        <EmailField maxLength={254} error={errors.email} />
      </div>
      <TextAreaField
        label="Your question"
        name="message"
        rows={3}
        maxLength={2000}
        error={errors.message}
        onKeyDown={sendOnEnter}
      />
      <p className={note}>
        We answer here while you wait; if nobody can join, we reply to this address by e-mail.{' '}
        <Link to="/login" search={{ redirect: '/contact#live-chat' }} className={inlineLink}>
          Sign in
        </Link>{' '}
        to chat from your account and get the transcript by e-mail.
      </p>
      <div>
        <button type="submit" className={button()} {...submitWhilePending(start.isPending)}>
          {start.isPending ? 'Starting…' : 'Start chat'}
        </button>
      </div>
    </form>
  )
}

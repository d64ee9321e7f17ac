import { useMutation } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { postedFields, useNativeFormResult } from '#client/lib/native-form.ts'
import type { Trpc } from '#client/lib/trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { contactFields, firstIssueByField } from '#shared/native-form.ts'
import { CONTACT_SUCCESS_MESSAGE, contactMessageSchema } from '#shared/schemas/contact.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { serverFieldErrors } from '../ui/field-errors.tsx'
import { CheckboxField, FormAlert, TextAreaField, TextField, useFocusFirstInvalid } from '../ui/form.tsx'
import { notify, notifyError } from '../ui/toaster.tsx'

type Field = 'name' | 'email' | 'subject' | 'message' | 'agreement'
type Errors = Partial<Record<Field, string>>

const input = css({
  w: 'full',
  px: '3',
  py: '2',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'control',
  bg: 'surface',
  '&[aria-invalid=true]': { borderColor: 'danger' },
})
const labelClass = css({ display: 'grid', gap: '1', fontSize: 'sm', fontWeight: 'medium' })

/**
 * The contact form: the shared zod schema checks it here and again on the server. Its inputs are uncontrolled, so
 * what is typed before the page's JavaScript arrives stays; sent before then, the browser posts it to /contact.
 */
export function ContactForm({ trpc }: { trpc: Trpc }) {
  const posted = useNativeFormResult('/contact')
  const values = posted?.values ?? {}
  const [errors, setErrors] = useState<Errors>(posted?.fieldErrors ?? {})
  // The server's answer to a form sent before the JavaScript arrived, until the next send (a hydrated page answers
  // with a toast).
  const [showPosted, setShowPosted] = useState(true)
  const formRef = useFocusFirstInvalid(errors)
  const send = useMutation(
    trpc.contact.send.mutationOptions({
      onSuccess: () => {
        notify('success', CONTACT_SUCCESS_MESSAGE)
        formRef.current?.reset()
        setErrors({})
      },
      onError: (error) => {
        const fieldErrors = serverFieldErrors(error)
        if (fieldErrors) setErrors(fieldErrors as Errors)
        notifyError(error, 'Failed to send message', errorMessage(error))
      },
    }),
  )

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setShowPosted(false)
    const parsed = contactMessageSchema.safeParse(contactFields(postedFields(event.currentTarget)))
    if (!parsed.success) {
      setErrors(firstIssueByField(parsed.error.issues) as Errors)
      return
    }
    setErrors({})
    send.mutate(parsed.data)
  }

  const text = (field: Exclude<Field, 'agreement'>, label: string, type = 'text') => {
    const own = { label, name: field, className: labelClass, controlClassName: input, error: errors[field] }
    return field === 'message' ? (
      <TextAreaField {...own} rows={6} maxLength={5000} defaultValue={values.message} />
    ) : (
      <TextField {...own} type={type} defaultValue={values[field]} maxLength={field === 'email' ? 254 : 150} />
    )
  }

  return (
    <form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={submit}
      aria-label="Send us a message"
      className={css({ display: 'grid', gap: '4' })}
    >
      {showPosted && posted?.done ? <FormAlert kind="success">{posted.done}</FormAlert> : null}
      {showPosted && posted?.formError ? <FormAlert>{posted.formError}</FormAlert> : null}
      <div className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } })}>
        {text('name', 'Your Name')}
        {text('email', 'Email Address', 'email')}
      </div>
      {text('subject', 'Subject')}
      {text('message', 'Message')}
      <CheckboxField
        name="agreement"
        defaultChecked={values.agreement === 'on'}
        error={errors.agreement}
        label={
          <>
            I agree to the{' '}
            <Link to="/terms" className={css({ color: 'accent', textDecoration: 'underline' })}>
              terms
            </Link>{' '}
            and{' '}
            <Link to="/privacy" className={css({ color: 'accent', textDecoration: 'underline' })}>
              privacy policy
            </Link>
            .
          </>
        }
      />
      <button type="submit" className={button({ size: 'lg' })} {...submitWhilePending(send.isPending)}>
        {send.isPending ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  )
}

// A form's field errors from the server, tied to their fields: the server sends zod's flattened `fieldErrors` (also
// for a domain refusal about one field, such as a taken name; see src-server/trpc/init.ts). Each field gets
// aria-invalid, aria-describedby to a message under it, and the first invalid field takes focus. An error about no
// field (forbidden, an outage) stays a form-level alert. useSubmitForm is a native form's whole submit: the shared
// schema's check, the call, the toast.
import { TRPCClientError } from '@trpc/client'
import { type FormEvent, useCallback, useId, useMemo, useState } from 'react'
import { errorMessage } from '#client/lib/errors.ts'
import { firstIssueByField } from '#shared/native-form.ts'
import { css } from '#styled-system/css'
import { useFocusFirstInvalid } from './form.tsx'
import { notify } from './toaster.tsx'

/** The server's first message for each field, or null when the error is about no field. */
export function serverFieldErrors(error: unknown): Record<string, string> | null {
  if (!(error instanceof TRPCClientError)) return null
  const fieldErrors = error.data?.zodError?.fieldErrors as Record<string, string[] | undefined> | undefined
  if (!fieldErrors) return null
  const first = Object.entries(fieldErrors).flatMap(([field, messages]) =>
    messages?.[0] ? [[field, messages[0]]] : [],
  )
  return first.length ? Object.fromEntries(first) : null
}

/** The messages of the fields a form shows (`fields`), out of messages by field name. */
function onlyFields<Field extends string>(byField: Record<string, string>, fields: readonly Field[]) {
  return Object.fromEntries(Object.entries(byField).filter(([field]) => fields.includes(field as Field))) as Partial<
    Record<Field, string>
  >
}

const messageClass = css({ color: 'danger', fontSize: 'sm', fontWeight: 'normal' })

export function useFieldErrors<Field extends string>() {
  const id = useId()
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  /** An error about no field (or about a field this form does not show). */
  const [formError, setFormError] = useState<string | null>(null)
  const formRef = useFocusFirstInvalid(errors)
  const messageId = useCallback((field: Field) => `${id}-${field}-error`, [id])

  const clear = useCallback(() => {
    setErrors({})
    setFormError(null)
  }, [])

  /** A check made in the browser before sending: these fields' messages, and a form alert only if given. */
  const show = useCallback((shown: Partial<Record<Field, string>>, alert: string | null = null) => {
    setErrors(shown)
    setFormError(alert)
  }, [])

  /** Spreads onto the field's input, select or textarea. */
  const control = useCallback(
    (field: Field) => ({
      'aria-invalid': errors[field] ? true : undefined,
      'aria-describedby': errors[field] ? messageId(field) : undefined,
    }),
    [errors, messageId],
  )

  /** The message under the field (nothing when it is valid). */
  const message = useCallback(
    (field: Field) =>
      errors[field] ? (
        <span id={messageId(field)} className={messageClass}>
          {errors[field]}
        </span>
      ) : null,
    [errors, messageId],
  )

  /**
   * A failed save: field errors for the fields this form shows (`fields`), the rest as the form's alert. Returns
   * true when at least one field got its error.
   */
  const fromError = useCallback((error: unknown, fields: readonly Field[]) => {
    const byField = serverFieldErrors(error) ?? {}
    const shown = onlyFields(byField, fields)
    const other = Object.entries(byField).find(([field]) => !fields.includes(field as Field))?.[1]
    setErrors(shown)
    const hasField = Object.keys(shown).length > 0
    setFormError(hasField ? (other ?? null) : (other ?? errorMessage(error)))
    return hasField
  }, [])

  /** The form's id: a dialog's Save button in its footer (outside the form) names it with `form=`, so it submits
   * the form and Enter in a field submits too. */
  const formId = `${id}-form`

  return useMemo(
    () => ({ errors, formError, formRef, formId, control, message, fromError, show, clear }),
    [errors, formError, formRef, formId, control, message, fromError, show, clear],
  )
}

/** What useSubmitForm needs of a shared zod schema (src-shared/schemas): its safeParse. */
interface FormSchema<Input> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: Input }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } }
}

/**
 * A native form's submit, one way for every form: read the values (`read`); check them with the shared zod schema
 * (`schema`, where its output is what the call takes: a schema that reshapes, such as lines into a list, is left to
 * the server) — its first message for each field goes under that field and nothing is sent; send them (`send`), then
 * say so (`done`, a toast). A refusal goes under its fields or, about no field, into the form's alert. Spread
 * `formProps` onto the form, after {...SCRIPT_ONLY_FORM} (tests/unit/form-methods.test.ts reads it in the tag): the
 * schema's messages replace the browser's, and the first invalid field takes the focus.
 */
export function useSubmitForm<Field extends string, Read, Input = Read>(options: {
  fields: readonly Field[]
  schema?: FormSchema<Input>
  read: (form: FormData) => Read
  send: (input: Input, form: HTMLFormElement) => Promise<unknown>
  done?: string
  /** An object of the schema's whose fields the form shows as fields of their own (firstIssueByField). */
  nested?: string
}) {
  const fields = useFieldErrors<Field>()
  const { schema, read, send, done, nested } = options
  const names = options.fields

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const values = read(new FormData(form))
    const parsed = schema ? schema.safeParse(values) : { success: true as const, data: values as unknown as Input }
    if (!parsed.success) {
      const shown = onlyFields(firstIssueByField(parsed.error.issues, nested), names)
      // A message about no field this form shows goes into its alert.
      fields.show(shown, Object.keys(shown).length > 0 ? null : (parsed.error.issues[0]?.message ?? null))
      return
    }
    fields.clear()
    try {
      await send(parsed.data, form)
      if (done) notify('success', done)
    } catch (error) {
      fields.fromError(error, names)
    }
  }

  const formProps = { ref: fields.formRef, onSubmit, noValidate: true }
  return { ...fields, formProps }
}

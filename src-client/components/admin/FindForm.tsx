// A staff list's Find (the outbox's Recipient, an order's reference or customer, a customer's service orders): one
// field, Find, and Show all while a search is on. What is searched for stays the page's state, never its URL: it can
// be a person's address, which the address bar, history and the access log would keep (the query goes as a POST:
// lib/trpc.ts).
import { type FormEvent, useEffect, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { TextField, useFocusFirstInvalid } from '#client/components/ui/form.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { css } from '#styled-system/css'

export function FindForm({
  landmark,
  label,
  name,
  type = 'text',
  placeholder,
  searching,
  rule,
  onFind,
  prefill,
}: {
  /** The search landmark's name, for screen readers. */
  landmark: string
  label: string
  name: string
  type?: 'text' | 'email'
  placeholder: string
  /** A search is on: Show all is offered. */
  searching: boolean
  /** The shared schema a typed value must pass; its first issue is the field's error. */
  rule: { safeParse(value: unknown): { error?: { issues: { message: string }[] } } }
  /** The value to search for, trimmed; undefined to list everything again. */
  onFind: (typed?: string) => void
  /** A search begun elsewhere (a link to a customer): the field shows it. */
  prefill?: string
}) {
  // A new object each submit, so a second refusal of the same text takes focus back to the field too.
  const [errors, setErrors] = useState<{ typed?: string }>({})
  const formRef = useFocusFirstInvalid(errors)
  useEffect(() => {
    const field = formRef.current?.elements.namedItem(name)
    if (prefill && field instanceof HTMLInputElement) field.value = prefill
  }, [prefill, name, formRef])

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const typed = String(new FormData(event.currentTarget).get(name) ?? '').trim()
    const refused = typed ? rule.safeParse(typed).error?.issues[0]?.message : undefined
    setErrors({ typed: refused })
    if (!refused) onFind(typed || undefined)
  }

  return (
    <search aria-label={landmark}>
      <form
        {...SCRIPT_ONLY_FORM}
        ref={formRef}
        onSubmit={onSubmit}
        noValidate
        className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: '2', mb: '4' })}
      >
        <TextField
          label={label}
          name={name}
          type={type}
          autoComplete="off"
          placeholder={placeholder}
          error={errors.typed}
          className={css({ display: 'grid', gap: '1', flex: '1 1 16rem', maxW: 'md' })}
        />
        <div className={css({ display: 'flex', gap: '2', alignSelf: 'flex-start', mt: '6' })}>
          <button type="submit" className={button({ variant: 'outline' })}>
            Find
          </button>
          {searching ? (
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              onClick={(event) => {
                // Reset here, not as a reset button: this button goes with the search, before a reset's default action.
                event.currentTarget.form?.reset()
                setErrors({})
                onFind(undefined)
              }}
            >
              Show all
            </button>
          ) : null}
        </div>
      </form>
    </search>
  )
}

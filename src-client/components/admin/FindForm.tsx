// A staff list's Find (the outbox's Recipient, an order's reference or customer, a customer's service orders): one
// field, Find, and Show all while a search is on. What is searched for stays the page's state, never its URL: it can
// be a person's address, which the address bar, history and the access log would keep (the query goes as a POST:
// lib/trpc.ts).
import { type FormEvent, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { TextField } from '#client/components/ui/form.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { css } from '#styled-system/css'

/** What the shared schema says of a typed value: its first issue's message, or nothing when it may be searched. */
export function firstIssue(schema: { safeParse(value: unknown): { error?: { issues: { message: string }[] } } }) {
  return (typed: string) => schema.safeParse(typed).error?.issues[0]?.message
}

export function FindForm({
  landmark,
  label,
  name,
  type = 'text',
  placeholder,
  searching,
  refusal,
  onFind,
}: {
  /** The search landmark's name, for screen readers. */
  landmark: string
  label: string
  name: string
  type?: 'text' | 'email'
  placeholder: string
  /** A search is on: Show all is offered. */
  searching: boolean
  /** Why a typed value cannot be searched for (the shared schema's message), or nothing. */
  refusal: (typed: string) => string | undefined
  /** The value to search for, trimmed; undefined to list everything again. */
  onFind: (typed?: string) => void
}) {
  const [error, setError] = useState<string>()

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const typed = String(new FormData(event.currentTarget).get(name) ?? '').trim()
    const refused = typed ? refusal(typed) : undefined
    setError(refused)
    if (refused) {
      event.currentTarget.querySelector('input')?.focus()
      return
    }
    onFind(typed || undefined)
  }

  return (
    <search aria-label={landmark}>
      <form
        {...SCRIPT_ONLY_FORM}
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
          error={error}
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
                setError(undefined)
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

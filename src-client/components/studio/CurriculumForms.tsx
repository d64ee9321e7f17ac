// The builder's small forms: add a section or a lesson by its title, and rename a section in place.
import { useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { TextField } from '#client/components/ui/form.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { STUDIO_LIMITS, STUDIO_MESSAGES } from '#shared/studio.ts'
import { css } from '#styled-system/css'

const formRow = css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'flex-end' })
const grow = css({ display: 'flex', flexDir: 'column', gap: '1', flex: '1 1 14rem', minW: 0 })

function titleOf(form: HTMLFormElement): string {
  return String(new FormData(form).get('title') ?? '').trim()
}

export function AddForm({
  label,
  action,
  pending,
  disabled,
  onAdd,
}: {
  label: string
  action: string
  pending: boolean
  disabled?: boolean
  onAdd: (title: string, reset: () => void) => void
}) {
  const [error, setError] = useState<string>()
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      noValidate
      className={formRow}
      onSubmit={(event) => {
        event.preventDefault()
        const form = event.currentTarget
        const input = () => form.querySelector<HTMLInputElement>('input[name="title"]')
        const title = titleOf(form)
        if (!title) {
          setError(STUDIO_MESSAGES.titleRequired)
          input()?.focus()
          return
        }
        setError(undefined)
        onAdd(title, () => {
          form.reset()
          input()?.focus()
        })
      }}
    >
      <TextField
        label={label}
        name="title"
        maxLength={STUDIO_LIMITS.title}
        error={error}
        disabled={disabled}
        hint={disabled ? 'This course has reached its limit.' : undefined}
        className={grow}
      />
      <button type="submit" className={button({ variant: 'outline' })} disabled={pending || disabled}>
        {pending ? 'Adding…' : action}
      </button>
    </form>
  )
}

export function RenameForm({
  label,
  value,
  pending,
  onSave,
  onCancel,
}: {
  label: string
  value: string
  pending: boolean
  onSave: (title: string) => void
  onCancel: () => void
}) {
  const [error, setError] = useState<string>()
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      noValidate
      className={formRow}
      onSubmit={(event) => {
        event.preventDefault()
        const title = titleOf(event.currentTarget)
        if (!title) return setError(STUDIO_MESSAGES.titleRequired)
        onSave(title)
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel()
      }}
    >
      <TextField
        label={label}
        name="title"
        // The Rename button was pressed to edit this very field.
        autoFocus
        defaultValue={value}
        maxLength={STUDIO_LIMITS.title}
        error={error}
        className={grow}
      />
      <button type="submit" className={button({ size: 'sm' })} disabled={pending}>
        {pending ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className={button({ variant: 'ghost', size: 'sm' })} onClick={onCancel}>
        Cancel
      </button>
    </form>
  )
}

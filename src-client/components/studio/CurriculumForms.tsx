// The builder's small forms: add a section or a lesson by its title, and rename a section in place.
import { type ComponentProps, type KeyboardEvent, type ReactNode, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { TextField } from '#client/components/ui/form.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { STUDIO_LIMITS, STUDIO_MESSAGES } from '#shared/studio.ts'
import { css } from '#styled-system/css'

const formRow = css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'flex-end' })
const grow = css({ display: 'flex', flexDir: 'column', gap: '1', flex: '1 1 14rem', minW: 0 })

function titleOf(form: HTMLFormElement): string {
  return String(new FormData(form).get('title') ?? '').trim()
}

const titleInput = (form: HTMLFormElement) => form.querySelector<HTMLInputElement>('input[name="title"]')

/**
 * A one-line form of a title: an empty title is refused under the field, which takes the focus; any other goes to
 * `onTitle` with its form. `field`: the title field's label and what else it shows; `children`: the buttons.
 */
function TitleForm({
  field,
  onTitle,
  onKeyDown,
  children,
}: {
  field: Omit<ComponentProps<typeof TextField>, 'name' | 'maxLength' | 'error' | 'className'>
  onTitle: (title: string, form: HTMLFormElement) => void
  onKeyDown?: (event: KeyboardEvent<HTMLFormElement>) => void
  children: ReactNode
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
        const title = titleOf(form)
        if (!title) {
          setError(STUDIO_MESSAGES.titleRequired)
          titleInput(form)?.focus()
          return
        }
        setError(undefined)
        onTitle(title, form)
      }}
      onKeyDown={onKeyDown}
    >
      <TextField {...field} name="title" maxLength={STUDIO_LIMITS.title} error={error} className={grow} />
      {children}
    </form>
  )
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
  return (
    <TitleForm
      field={{ label, disabled, hint: disabled ? 'This course has reached its limit.' : undefined }}
      onTitle={(title, form) =>
        onAdd(title, () => {
          form.reset()
          titleInput(form)?.focus()
        })
      }
    >
      <button
        type="submit"
        className={button({ variant: 'outline' })}
        {...submitWhilePending(pending || Boolean(disabled))}
      >
        {pending ? 'Adding…' : action}
      </button>
    </TitleForm>
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
  return (
    <TitleForm
      // The Rename button was pressed to edit this very field.
      field={{ label, autoFocus: true, defaultValue: value }}
      onTitle={(title) => onSave(title)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel()
      }}
    >
      <button type="submit" className={button({ size: 'sm' })} {...submitWhilePending(pending)}>
        {pending ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className={button({ variant: 'ghost', size: 'sm' })} onClick={onCancel}>
        Cancel
      </button>
    </TitleForm>
  )
}

// The buyer's brief, drawn from the service's intake form (data from the server) and checked with the same zod
// schema the server uses. Save draft keeps whatever is typed; Submit checks it first and, when a field is wrong,
// shows that field's message, keeps every answer, saves them as a draft and takes focus to the first wrong answer.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import {
  type Brief,
  type BriefValue,
  briefErrors,
  briefSchema,
  type IntakeField,
  type IntakeForm,
} from '#shared/schemas/service-brief.ts'
import { SERVICE_ORDER_MESSAGES } from '#shared/service-orders.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { CheckboxField, Options, SelectField, TextAreaField, TextField, useFocusFirstInvalid } from '../ui/form.tsx'
import { notify, notifyError, toastOutcome } from '../ui/toaster.tsx'
import { FileLinks, FilePicker, type OrderFile } from './files.tsx'

type Person = Record<string, string | boolean | string[]>
const errorText = css({ color: 'danger', fontSize: 'sm' })
const textarea = css({
  w: 'full',
  minH: '20',
  p: '3',
  fontSize: 'sm',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'control',
  bg: 'surface',
  '&[aria-invalid=true]': { borderColor: 'danger' },
})
function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: Exclude<IntakeField, { kind: 'people' }>
  value: BriefValue | undefined
  error?: string
  onChange: (value: string | boolean | string[]) => void
}) {
  const label = `${field.label}${field.required ? ' *' : ''}`
  const common = { error, 'aria-required': field.required || undefined }
  if (field.kind === 'yesno') {
    return (
      <CheckboxField
        label={field.label}
        {...common}
        checked={value === true}
        onChange={(event) => onChange(event.target.checked)}
      />
    )
  }
  if (field.kind === 'select') {
    return (
      <SelectField
        label={label}
        hint={field.hint}
        {...common}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">Choose…</option>
        <Options items={field.options} />
      </SelectField>
    )
  }
  if (field.kind === 'textarea' || field.kind === 'list') {
    const text = Array.isArray(value) ? value.join('\n') : typeof value === 'string' ? value : ''
    return (
      <TextAreaField
        label={label}
        hint={field.hint}
        {...common}
        controlClassName={textarea}
        value={text}
        onChange={(e) => onChange(field.kind === 'list' ? e.target.value.split('\n') : e.target.value)}
      />
    )
  }
  const type = field.kind === 'date' ? 'date' : field.kind === 'url' ? 'url' : 'text'
  return (
    <TextField
      label={label}
      hint={field.hint}
      {...common}
      type={type}
      inputMode={field.kind === 'number' ? 'decimal' : undefined}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.target.value)}
    />
  )
}

function PeopleInput({
  field,
  people,
  errors,
  onChange,
}: {
  field: Extract<IntakeField, { kind: 'people' }>
  people: Person[]
  errors: Record<string, string>
  onChange: (people: Person[]) => void
}) {
  const listError = errors[field.name]
  const listErrorId = useId()
  return (
    <fieldset className={css({ borderWidth: '1px', borderColor: 'line', borderRadius: 'card', p: '4' })}>
      <legend className={css({ px: '1', fontWeight: 'semibold', fontSize: 'sm' })}>
        {field.label}
        {field.required ? ' *' : ''}
      </legend>
      <div className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
        {people.map((person, index) => (
          <fieldset
            // biome-ignore lint/suspicious/noArrayIndexKey: people have no ids; the position is who they are here
            key={index}
            className={css({ borderTopWidth: index ? '1px' : 0, borderColor: 'line', pt: index ? '4' : 0 })}
          >
            <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '2' })}>
              {field.itemLabel} {index + 1}
            </legend>
            <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' }, gap: '3' })}>
              {field.fields.map((sub) => (
                <FieldInput
                  key={sub.name}
                  field={sub}
                  value={person[sub.name]}
                  error={errors[`${field.name}.${index}.${sub.name}`]}
                  onChange={(value) => onChange(people.map((p, i) => (i === index ? { ...p, [sub.name]: value } : p)))}
                />
              ))}
            </div>
            <button
              type="button"
              className={`${button({ variant: 'ghost', size: 'sm' })} ${css({ mt: '2' })}`}
              onClick={() => onChange(people.filter((_, i) => i !== index))}
            >
              Remove {field.itemLabel.toLowerCase()} {index + 1}
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          data-invalid={listError ? true : undefined}
          aria-describedby={listError ? listErrorId : undefined}
          onClick={() => onChange([...people, {}])}
        >
          Add {field.itemLabel.toLowerCase()}
        </button>
        {listError ? (
          <p id={listErrorId} className={errorText}>
            {listError}
          </p>
        ) : null}
      </div>
    </fieldset>
  )
}

export function BriefForm({
  orderId,
  form,
  initial,
  files,
}: {
  orderId: string
  form: IntakeForm
  initial: Record<string, unknown>
  files: OrderFile[]
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [brief, setBrief] = useState<Brief>(initial as Brief)
  const [errors, setErrors] = useState<Record<string, string>>({})
  // The messages of the last refused submit: focus goes to the first once, not again as each answer is corrected.
  const [refused, setRefused] = useState<Record<string, string>>({})
  const formRef = useFocusFirstInvalid(refused)
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.serviceOrders.pathKey() })
  const save = useMutation(trpc.serviceOrders.saveDraft.mutationOptions({ onError: (e) => notifyError(e) }))
  const submit = useMutation(
    trpc.serviceOrders.submitBrief.mutationOptions(toastOutcome(SERVICE_ORDER_MESSAGES.briefSubmitted, refresh)),
  )
  const removeFile = useMutation(
    trpc.serviceOrders.removeBriefFile.mutationOptions({ onSuccess: refresh, onError: (e) => notifyError(e) }),
  )
  // An answer being corrected loses its old message (and those of the people inside it).
  const set = (name: string, value: BriefValue) => {
    setBrief((current) => ({ ...current, [name]: value }))
    setErrors((current) =>
      Object.fromEntries(Object.entries(current).filter(([key]) => key !== name && !key.startsWith(`${name}.`))),
    )
  }

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault()
    const checked = briefSchema(form, 'submit').safeParse(brief)
    if (!checked.success) {
      const found = briefErrors(checked.error)
      setErrors(found)
      setRefused(found)
      notify('error', SERVICE_ORDER_MESSAGES.fixFields)
      save.mutate({ id: orderId, brief })
      return
    }
    setErrors({})
    submit.mutate({ id: orderId, brief })
  }

  return (
    <form
      {...SCRIPT_ONLY_FORM}
      ref={formRef}
      onSubmit={onSubmit}
      noValidate
      className={css({ display: 'flex', flexDir: 'column', gap: '4' })}
    >
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{form.intro}</p>
      {form.fields.map((field) =>
        field.kind === 'people' ? (
          <PeopleInput
            key={field.name}
            field={field}
            people={(Array.isArray(brief[field.name]) ? brief[field.name] : []) as Person[]}
            errors={errors}
            onChange={(people) => set(field.name, people)}
          />
        ) : (
          <FieldInput
            key={field.name}
            field={field}
            value={brief[field.name]}
            error={errors[field.name]}
            onChange={(value) => set(field.name, value)}
          />
        ),
      )}
      <FileLinks files={files} onRemove={(file) => removeFile.mutate({ id: orderId, fileId: file.id })} />
      <FilePicker orderId={orderId} purpose="brief" label="Attach documents" onUploaded={() => void refresh()} />
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <button
          type="button"
          className={button({ variant: 'outline' })}
          {...whilePending(save.isPending, 'onClick', () =>
            save.mutate(
              { id: orderId, brief },
              { onSuccess: () => notify('success', SERVICE_ORDER_MESSAGES.draftSaved) },
            ),
          )}
        >
          {save.isPending ? 'Saving…' : 'Save draft'}
        </button>
        <button type="submit" className={button()} {...submitWhilePending(submit.isPending)}>
          {submit.isPending ? 'Submitting…' : 'Submit brief'}
        </button>
      </div>
    </form>
  )
}

function showValue(field: IntakeField, value: unknown): string {
  if (value === undefined || value === null || value === '') return '—'
  if (field.kind === 'yesno') return value === true ? 'Yes' : 'No'
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string' && v.trim()).join(', ') || '—'
  return String(value)
}

/** A submitted brief, read-only. */
export function BriefView({ form, brief }: { form: IntakeForm; brief: Record<string, unknown> }) {
  const term = css({ fontSize: 'sm', color: 'fg.muted' })
  return (
    <dl className={css({ display: 'grid', gap: '3' })} data-testid="brief-view">
      {form.fields.map((field) => (
        <div key={field.name}>
          <dt className={term}>{field.label}</dt>
          <dd>
            {field.kind === 'people' ? (
              <ul className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
                {((brief[field.name] as Person[] | undefined) ?? []).map((person, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: read-only list in submitted order
                  <li key={index} className={css({ fontSize: 'sm' })}>
                    {field.fields.map((sub) => `${sub.label}: ${showValue(sub, person[sub.name])}`).join(' · ')}
                  </li>
                ))}
              </ul>
            ) : (
              <span className={css({ whiteSpace: 'pre-wrap' })}>{showValue(field, brief[field.name])}</span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}

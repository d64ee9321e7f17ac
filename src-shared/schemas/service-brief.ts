// Intake forms ("briefs") of business services: each service's form is data (services.intake_form, written by the
// seed), and ONE zod schema is built from it here, used by the buyer's form in the browser and by the server.
// Two modes: a draft takes any partial answers of the right shape (so nothing typed is ever refused on save);
// a submission needs every required field, valid.
import { z } from 'zod'

interface FieldBase {
  /** Key of the answer in the brief. */
  name: string
  label: string
  required?: boolean
  hint?: string
}

export type IntakeField =
  | (FieldBase & { kind: 'text' | 'textarea'; maxLength?: number; pattern?: { regex: string; message: string } })
  | (FieldBase & { kind: 'url' })
  | (FieldBase & { kind: 'date'; past?: boolean })
  | (FieldBase & { kind: 'number'; min?: number; max?: number })
  | (FieldBase & { kind: 'select'; options: string[] })
  | (FieldBase & { kind: 'yesno' })
  /** Several short answers, one a line (SIC codes, competitors). */
  | (FieldBase & { kind: 'list'; minItems?: number; maxItems?: number; item?: { regex: string; message: string } })
  /** People (directors, members): each with the same small set of fields; no people inside people. */
  | (FieldBase & {
      kind: 'people'
      itemLabel: string
      minItems?: number
      maxItems?: number
      fields: PersonField[]
      /** At least one person must answer yes to this yes/no field (e.g. a company needs a director). */
      oneMust?: { field: string; message: string }
    })

export type PersonField = Exclude<IntakeField, { kind: 'people' }>

export interface IntakeForm {
  /** One line above the form. */
  intro: string
  fields: IntakeField[]
}

/** What a service without its own form asks (a service added by staff before it has one). */
export const GENERIC_INTAKE_FORM: IntakeForm = {
  intro: 'Tell us what you need so we can start.',
  fields: [{ kind: 'textarea', name: 'details', label: 'What do you need?', required: true, maxLength: 5000 }],
}

export type BriefValue = string | boolean | string[] | Record<string, string | boolean | string[]>[]
export type Brief = Record<string, BriefValue>

const TEXT_MAX = 5000
const REQUIRED = 'This field is required'

function textLimit(field: IntakeField): number {
  if (field.kind === 'text') return field.maxLength ?? 200
  if (field.kind === 'textarea') return field.maxLength ?? TEXT_MAX
  return 500
}

/** A draft answer: the right type and size, nothing else checked. */
function draftValue(field: IntakeField): z.ZodType {
  const text = z.string().max(textLimit(field), `Must be at most ${textLimit(field)} characters`)
  switch (field.kind) {
    case 'yesno':
      return z.boolean()
    case 'list':
      return z.array(z.string().max(200)).max(field.maxItems ?? 50)
    case 'people':
      return z
        .array(z.object(Object.fromEntries(field.fields.map((f) => [f.name, draftValue(f).optional()]))))
        .max(field.maxItems ?? 20)
    default:
      return text
  }
}

const isBlank = (value: unknown) =>
  value === undefined || value === '' || (typeof value === 'string' && value.trim() === '')

function submittedText(field: IntakeField): z.ZodType<string> {
  let text = z
    .string({ error: (issue) => (issue.input === undefined ? REQUIRED : 'Enter text') })
    .trim()
    .max(textLimit(field), `Must be at most ${textLimit(field)} characters`)
  switch (field.kind) {
    case 'text':
    case 'textarea':
      if (field.pattern) text = text.regex(new RegExp(field.pattern.regex), field.pattern.message)
      return text
    case 'url':
      return text.refine((value) => {
        try {
          const url = new URL(value)
          return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.')
        } catch {
          return false
        }
      }, 'Enter a full website address, such as https://example.com')
    case 'date':
      return text.refine((value) => {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
        const date = new Date(`${value}T00:00:00Z`)
        if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false
        return !field.past || (date.getTime() < Date.now() && date.getUTCFullYear() > 1900)
      }, 'Enter a valid date')
    case 'number':
      return text.refine((value) => {
        if (!/^\d+(\.\d{1,2})?$/.test(value)) return false
        const n = Number(value)
        return n >= (field.min ?? 0) && n <= (field.max ?? Number.MAX_SAFE_INTEGER)
      }, numberMessage(field))
    case 'select':
      return text.refine((value) => field.options.includes(value), 'Choose one of the options')
    default:
      return text
  }
}

function numberMessage(field: Extract<IntakeField, { kind: 'number' }>): string {
  if (field.max !== undefined) return `Enter a number from ${field.min ?? 0} to ${field.max}`
  return `Enter a number of at least ${field.min ?? 0}`
}

/** A submitted answer: required fields present, every present answer valid. */
function submittedValue(field: IntakeField): z.ZodType {
  if (field.kind === 'yesno') {
    const value = z.boolean({ error: REQUIRED })
    return field.required ? value : value.optional()
  }
  if (field.kind === 'list') {
    const item = field.item ? z.string().trim().regex(new RegExp(field.item.regex), field.item.message) : z.string()
    const min = field.minItems ?? (field.required ? 1 : 0)
    // Blank lines are not answers: dropped before the items are checked.
    const items = z.preprocess(
      (value) => (Array.isArray(value) ? value.filter((entry) => !isBlank(entry)) : value),
      z
        .array(item.max(200), { error: REQUIRED })
        .min(min, min === 1 ? REQUIRED : `Add at least ${min}`)
        .max(field.maxItems ?? 50, `At most ${field.maxItems ?? 50}`),
    )
    return field.required ? items : items.optional()
  }
  if (field.kind === 'people') {
    const person = z.object(Object.fromEntries(field.fields.map((f) => [f.name, submittedValue(f)])))
    const min = field.minItems ?? (field.required ? 1 : 0)
    const oneMust = field.oneMust
    const people = z
      .array(person, { error: REQUIRED })
      .min(min, `Add at least ${min} ${field.itemLabel.toLowerCase()}${min === 1 ? '' : 's'}`)
      .max(field.maxItems ?? 20)
      .refine((list) => !oneMust || list.length === 0 || list.some((p) => p[oneMust.field] === true), oneMust?.message)
    return field.required ? people : people.optional()
  }
  // A blank answer is no answer. An optional key is skipped when absent, so a required field's schema must not be
  // optional: a missing answer then reaches the string check and gets the required message.
  const blankAsMissing = (value: unknown) => (isBlank(value) ? undefined : value)
  const text = submittedText(field)
  return field.required ? z.preprocess(blankAsMissing, text) : z.preprocess(blankAsMissing, text.optional())
}

/** The schema of a brief for this form: `draft` accepts partial answers, `submit` the complete brief only. */
export function briefSchema(form: IntakeForm, mode: 'draft' | 'submit') {
  return z.object(
    Object.fromEntries(
      form.fields.map((field) => [field.name, mode === 'draft' ? draftValue(field).optional() : submittedValue(field)]),
    ),
  )
}

/** Field path ('directors.0.name') → its first message, for showing beside the field. */
export function briefErrors(error: z.ZodError): Record<string, string> {
  const messages: Record<string, string> = {}
  for (const issue of error.issues) {
    // A line of a list field (its name and index) is told under the list, which the form shows as one field (the
    // index counts the lines left after blank ones were dropped, so it would not name the line); a person's answer
    // keeps its own place (name.index.answer).
    const [name, index, ...rest] = issue.path
    const key = typeof index === 'number' && rest.length === 0 ? String(name) : issue.path.join('.')
    if (!(key in messages)) messages[key] = issue.message
  }
  return messages
}

/** The brief a tRPC input carries: any JSON object; the service's own schema checks it on the server. */
export const briefInput = z.record(z.string().max(100), z.unknown())

/** Shape check of a stored form definition (the seed's, or one an editor may write later). */
const fieldShape = z.object({ kind: z.string(), name: z.string().min(1), label: z.string().min(1) }).loose()
export const intakeFormShape = z.object({ intro: z.string(), fields: z.array(fieldShape).min(1) })

// Writing or editing one's review: stars and optional text, checked with the server's schema before sending.
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { REVIEW_MAX_LENGTH } from '../../../../src-shared/reviews.ts'
import { reviewFormSchema } from '../../../../src-shared/schemas/reviews.ts'
import { css } from '../../../../styled-system/css'
import { SCRIPT_ONLY_FORM } from '../../../lib/native-form.ts'
import { button } from '../../ui/button.ts'
import { inputClass } from '../../ui/form.tsx'
import { StarInput } from './StarInput.tsx'

export interface ReviewDraft {
  rating: number
  body: string
}

export function ReviewForm({
  initial,
  submitLabel,
  pending,
  onSubmit,
  onCancel,
}: {
  initial?: ReviewDraft
  submitLabel: string
  pending: boolean
  onSubmit: (draft: ReviewDraft) => void
  onCancel?: () => void
}) {
  const id = useId()
  const [rating, setRating] = useState(initial?.rating ?? 0)
  const [body, setBody] = useState(initial?.body ?? '')
  const [errors, setErrors] = useState<{ rating?: string; body?: string }>({})
  const formRef = useRef<HTMLFormElement>(null)
  const editing = Boolean(initial)
  // Opened by "Edit review" (whose button is gone now): keyboard focus moves to the chosen star.
  useEffect(() => {
    if (editing) formRef.current?.querySelector<HTMLInputElement>('input[type=radio]:checked')?.focus()
  }, [editing])

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = reviewFormSchema.safeParse({ rating, body })
    if (!parsed.success) {
      const flat = parsed.error.flatten().fieldErrors
      return setErrors({ rating: flat.rating?.[0], body: flat.body?.[0] })
    }
    setErrors({})
    onSubmit(parsed.data)
  }

  return (
    <form
      {...SCRIPT_ONLY_FORM}
      ref={formRef}
      onSubmit={submit}
      noValidate
      aria-label="Your review"
      className={css({ display: 'grid', gap: '4' })}
    >
      <StarInput value={rating} onChange={setRating} error={errors.rating} />
      <div className={css({ display: 'grid', gap: '1' })}>
        <label htmlFor={`${id}-body`} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
          Your review (optional)
        </label>
        <textarea
          id={`${id}-body`}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          rows={4}
          maxLength={REVIEW_MAX_LENGTH}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={`${id}-count${errors.body ? ` ${id}-error` : ''}`}
          placeholder="What did you like? What could be better?"
          className={`${inputClass} ${css({ h: 'auto', py: '2' })}`}
        />
        <p id={`${id}-count`} className={css({ fontSize: 'xs', color: 'fg.muted' })}>
          {body.length.toLocaleString('en-US')} / {REVIEW_MAX_LENGTH.toLocaleString('en-US')} characters
        </p>
        {errors.body ? (
          <p id={`${id}-error`} className={css({ color: 'danger', fontSize: 'sm' })}>
            {errors.body}
          </p>
        ) : null}
      </div>
      <div className={css({ display: 'flex', gap: '2' })}>
        <button type="submit" className={button()} disabled={pending}>
          {pending ? 'Saving...' : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className={button({ variant: 'outline' })} onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  )
}

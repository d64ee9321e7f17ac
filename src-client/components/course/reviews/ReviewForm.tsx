// Writing or editing one's review: stars and optional text, checked with the server's schema before sending.
import { type FormEvent, useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { z } from 'zod'
import { button } from '#client/components/ui/button.ts'
import { inputClass, TextAreaField } from '#client/components/ui/form.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { groupDigits } from '#shared/numbers.ts'
import { REVIEW_MAX_LENGTH } from '#shared/reviews.ts'
import type { reviewFormSchema } from '#shared/schemas/reviews.ts'
import { css } from '#styled-system/css'
import { StarInput } from './StarInput.tsx'

// The schema (zod) loads when the form shows, not with the course page: zod would add a quarter to a phone's first
// download of every course page (issue 27), and most visitors never write a review.
const loadReviewSchema = () => import('#shared/schemas/reviews.ts').then((module) => module.reviewFormSchema)

/** A checked review form: the output of the shared schema the server checks it with again. */
export type ReviewDraft = z.output<typeof reviewFormSchema>

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
  const [rating, setRating] = useState(initial?.rating ?? 0)
  const [body, setBody] = useState(initial?.body ?? '')
  const [errors, setErrors] = useState<{ rating?: string; body?: string }>({})
  const formRef = useRef<HTMLFormElement>(null)
  const editing = Boolean(initial)
  // Opened by "Edit review" (whose button is gone now): keyboard focus moves to the chosen star.
  useEffect(() => {
    void loadReviewSchema()
  }, [])
  // The course page is server-rendered: text typed before it hydrated is shown while `body` is still empty, and React
  // takes the shown text as already known, so no change would ever say so; the next render would wipe it. Taken here,
  // in the hydrating commit (the stars do the same through useEarlyCheck).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the text the form was hydrated with.
  useLayoutEffect(() => {
    const typed = formRef.current?.querySelector('textarea')?.value
    if (typed && typed !== body) setBody(typed)
  }, [])
  useEffect(() => {
    if (editing) formRef.current?.querySelector<HTMLInputElement>('input[type=radio]:checked')?.focus()
  }, [editing])

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const reviewFormSchema = await loadReviewSchema()
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
      <TextAreaField
        label="Your review (optional)"
        className={css({ display: 'grid', gap: '1' })}
        controlClassName={`${inputClass} ${css({ h: 'auto', py: '2' })}`}
        error={errors.body}
        hint={`${groupDigits(body.length)} / ${groupDigits(REVIEW_MAX_LENGTH)} characters`}
        value={body}
        onChange={(event) => setBody(event.target.value)}
        rows={4}
        maxLength={REVIEW_MAX_LENGTH}
        placeholder="What did you like? What could be better?"
      />
      <div className={css({ display: 'flex', gap: '2' })}>
        <button type="submit" className={button()} {...submitWhilePending(pending)}>
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

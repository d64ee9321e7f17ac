// The Details tab's form. Inputs are uncontrolled (read with FormData on submit) so typed text survives hydration;
// the server validates and its messages go under their fields. On a course on sale the title, price and description
// wait for staff review: the form shows the pending values, with a note saying learners still see the old ones.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { ImageField } from '#client/components/admin/courses/ImageField.tsx'
import { DialogForm } from '#client/components/admin/DialogForm.tsx'
import { button } from '#client/components/ui/button.ts'
import { useFieldErrors } from '#client/components/ui/field-errors.tsx'
import { CheckboxField, Options, SelectField, TextAreaField, TextField } from '#client/components/ui/form.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { COURSE_LEVELS, capitalise } from '#shared/constants.ts'
import { coursePricesLabel } from '#shared/course-prices.ts'
import { STUDIO_LIMITS } from '#shared/studio.ts'
import { css, cx } from '#styled-system/css'

type Course = RouterOutputs['studio']['course']
type Category = RouterOutputs['studio']['categories'][number]

const FIELDS = [
  'title',
  'subtitle',
  'categoryId',
  'level',
  'language',
  'description',
  'whatYouWillLearn',
  'requirements',
  'imageUrl',
  'priceUsd',
  'priceGbp',
] as const
type Field = (typeof FIELDS)[number]

const grid = css({
  display: 'grid',
  gridTemplateColumns: { base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
  gap: '5',
})
const wide = css({ gridColumn: { md: '1 / -1' } })
const column = css({ display: 'flex', flexDir: 'column', gap: '1', minW: 0 })
const pendingNote = css({
  fontSize: 'xs',
  color: 'yellow.800',
  bg: 'yellow.50',
  px: '2',
  py: '1',
  borderRadius: 'control',
})

/** The course's lists, typed one item a line. */
const LIST_FIELDS = [
  { name: 'whatYouWillLearn', label: "What you'll learn (one per line)" },
  { name: 'requirements', label: 'Requirements (one per line)' },
] as const
const lines = (value: FormDataEntryValue | null) =>
  String(value ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
/** A price field per currency the course can be sold in; an empty one: not sold in it. */
const PRICE_FIELDS = [
  { currency: 'USD', name: 'priceUsd', label: 'Price in USD ($)', unsold: 'Empty: not sold in US dollars.' },
  { currency: 'GBP', name: 'priceGbp', label: 'Price in GBP (£)', unsold: 'Empty: not sold in pounds.' },
] as const
const decimal = (minor: number | null) => (minor === null ? '' : (minor / 100).toFixed(2))

export function CourseDetailsForm({ course, categories }: { course: Course; categories: Category[] }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const fields = useFieldErrors<Field>()
  const [imageUrl, setImageUrl] = useState(course.imageUrl === '/placeholder.svg' ? '' : course.imageUrl)
  const { pending } = course
  // The prices the creator sees are the pending ones when there are (null: not sold in that currency).
  const shownPrices = {
    USD: pending.priceUsdMinor !== undefined ? pending.priceUsdMinor : course.prices.USD,
    GBP: pending.priceGbpMinor !== undefined ? pending.priceGbpMinor : course.prices.GBP,
  }
  const pricePending = pending.priceUsdMinor !== undefined || pending.priceGbpMinor !== undefined
  const owner = course.role === 'owner'
  const save = useMutation(
    trpc.studio.updateCourse.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.studio.course.queryKey({ courseId: course.id }), saved)
        void queryClient.invalidateQueries({ queryKey: trpc.studio.myCourses.pathKey() })
        fields.clear()
        const waiting = Object.keys(saved.pending).length > 0
        notify('success', 'Course saved', waiting ? 'Title, price and description changes wait for review.' : undefined)
      },
      onError: (error) => fields.fromError(error, FIELDS),
    }),
  )

  // The image is the course's as soon as it is uploaded (the toast says so); the form's other fields wait for Save.
  const keepImage = useMutation(
    trpc.studio.setCourseImage.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.studio.course.queryKey({ courseId: course.id }), saved)
        // The course list's picture and the publish checklist's "A course image" item follow.
        void queryClient.invalidateQueries({ queryKey: trpc.studio.myCourses.pathKey() })
        void queryClient.invalidateQueries({ queryKey: trpc.studioPublishing.page.queryKey({ courseId: course.id }) })
      },
    }),
  )

  /** A field that shows the course's own value (none waits for review): its name, that value, the server's message. */
  const courseField = (name: 'subtitle' | 'categoryId' | 'level' | 'language') => ({
    name,
    defaultValue: course[name],
    error: fields.errors[name],
  })
  const pendingHint = (live: string) => (
    <span className={pendingNote}>Pending review. Learners see “{live}” until staff approve it.</span>
  )

  return (
    <DialogForm
      fields={fields}
      className={grid}
      alertClassName={wide}
      onSubmit={(event) => {
        const data = new FormData(event.currentTarget)
        save.mutate({
          courseId: course.id,
          title: String(data.get('title') ?? ''),
          subtitle: String(data.get('subtitle') ?? ''),
          categoryId: String(data.get('categoryId') ?? ''),
          level: COURSE_LEVELS.find((level) => level === data.get('level')) ?? 'beginner',
          language: String(data.get('language') ?? ''),
          description: String(data.get('description') ?? ''),
          whatYouWillLearn: lines(data.get('whatYouWillLearn')),
          requirements: lines(data.get('requirements')),
          imageUrl,
          priceUsd: owner ? String(data.get('priceUsd') ?? '') : decimal(shownPrices.USD),
          priceGbp: owner ? String(data.get('priceGbp') ?? '') : decimal(shownPrices.GBP),
          certificate: data.get('certificate') === 'on',
        })
      }}
    >
      {course.onSale ? (
        <p className={cx(wide, css({ fontSize: 'sm', color: 'fg.muted' }))}>
          This course is on sale. Changes to its title, price and description are reviewed before learners see them;
          everything else applies when you save.
        </p>
      ) : null}
      <TextField
        label="Title"
        name="title"
        required
        maxLength={STUDIO_LIMITS.title}
        defaultValue={pending.title ?? course.title}
        error={fields.errors.title}
        hint={pending.title !== undefined ? pendingHint(course.title) : undefined}
        className={cx(column, wide)}
      />
      <TextField
        label="Subtitle"
        maxLength={STUDIO_LIMITS.subtitle}
        {...courseField('subtitle')}
        className={cx(column, wide)}
      />
      <SelectField label="Category" {...courseField('categoryId')} className={column}>
        <Options items={categories} value={(category) => category.id} label={(category) => category.name} />
      </SelectField>
      <SelectField label="Level" {...courseField('level')} className={column}>
        <Options items={COURSE_LEVELS} label={capitalise} />
      </SelectField>
      <TextField label="Language" {...courseField('language')} className={column} />
      <CheckboxField
        label="Certificate of completion"
        name="certificate"
        defaultChecked={course.certificate}
        className={css({ alignSelf: 'end', pb: '2' })}
      />
      <TextAreaField
        label="Description"
        name="description"
        rows={10}
        maxLength={STUDIO_LIMITS.description}
        defaultValue={pending.description ?? course.description}
        error={fields.errors.description}
        hint={
          pending.description !== undefined ? (
            <span className={pendingNote}>Pending review: learners see the current description until approved.</span>
          ) : (
            'Markdown: headings (#), lists (-), **bold**, links. Shown to learners on the course page.'
          )
        }
        className={cx(column, wide)}
      />
      {LIST_FIELDS.map((list) => (
        <TextAreaField
          key={list.name}
          label={list.label}
          name={list.name}
          rows={5}
          defaultValue={course[list.name].join('\n')}
          error={fields.errors[list.name]}
          hint={`Up to ${STUDIO_LIMITS.listItems} lines of ${STUDIO_LIMITS.listItemLength} characters.`}
          className={column}
        />
      ))}
      <div className={wide}>
        <ImageField
          endpoint="/api/studio/course-image"
          value={imageUrl}
          replacing={Boolean(imageUrl)}
          onChange={setImageUrl}
          keep={(url) => keepImage.mutateAsync({ courseId: course.id, imageUrl: url })}
          error={fields.errors.imageUrl}
        />
      </div>
      <fieldset className={cx(wide, css({ borderWidth: 0, p: 0, m: 0, minW: 0 }))}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '2' })}>Price</legend>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '2' })}>
          Give a price in US dollars, in pounds, or both: buyers pay in their currency when the course has a price in
          it, else in the one it has. Leave both empty (or 0) for a free course.
        </p>
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '4', alignItems: 'flex-start' })}>
          {PRICE_FIELDS.map((price) => (
            <TextField
              key={price.name}
              label={price.label}
              name={price.name}
              inputMode="decimal"
              defaultValue={decimal(shownPrices[price.currency])}
              disabled={!owner}
              error={fields.errors[price.name]}
              className={cx(column, css({ flex: '1 1 10rem' }))}
              hint={!owner ? 'Only the course owner can change the price.' : price.unsold}
            />
          ))}
        </div>
        {pricePending ? <p className={css({ mt: '2' })}>{pendingHint(coursePricesLabel(course.prices))}</p> : null}
      </fieldset>
      <div className={cx(wide, css({ display: 'flex', gap: '3' }))}>
        <button type="submit" className={button()} {...submitWhilePending(save.isPending)}>
          {save.isPending ? 'Saving…' : 'Save details'}
        </button>
      </div>
    </DialogForm>
  )
}

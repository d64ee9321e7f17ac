// Add ('Add New Course') and edit ('Edit Course') dialogs. Validation is the server's: each message goes under its
// field (aria-invalid, aria-describedby) and the first invalid field takes focus.
import { useMutation, useQuery } from '@tanstack/react-query'
import { type ChangeEvent, useEffect, useState } from 'react'
import { useFieldErrors } from '#client/components/ui/field-errors.tsx'
import { CheckboxField, Options, SelectField, TextAreaField, TextField } from '#client/components/ui/form.tsx'
import { COURSE_LEVELS, capitalise } from '#shared/constants.ts'
import { css, cx } from '#styled-system/css'
import { AddEditDialog } from '../DialogForm.tsx'
import { fieldBox } from '../styles.ts'
import { useSavedThenClose, useTRPC } from '../use-staff.ts'
import { CurriculumEditor } from './CurriculumEditor.tsx'
import {
  type AdminCourse,
  type CourseFormState,
  curriculumLessonCount,
  emptyCourseForm,
  formFromCourse,
  inputFromForm,
} from './form-state.ts'
import { ImageField } from './ImageField.tsx'

const grid = css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' }, gap: '4' })
const wide = css({ gridColumn: { md: 'span 2' } })
const bareFieldset = css({ borderWidth: 0, p: 0, m: 0, minW: 0 })

const COURSE_FIELDS = [
  'title',
  'description',
  'price',
  'priceGbp',
  'originalPrice',
  'categoryId',
  'instructorName',
  'level',
  'status',
  'lessons',
  'durationMinutes',
  'language',
  'imageUrl',
  'whatYouWillLearn',
  'requirements',
  'curriculum',
] as const
type CourseField = (typeof COURSE_FIELDS)[number]
/** The fields whose value is the text of their control. */
type TextKey = {
  [K in CourseField & keyof CourseFormState]: CourseFormState[K] extends string ? K : never
}[CourseField & keyof CourseFormState]

export function CourseDialog({
  open,
  course,
  onClose,
}: {
  open: boolean
  /** The course to edit; null adds a new one. */
  course: AdminCourse | null
  onClose: () => void
}) {
  const trpc = useTRPC()
  const categories = useQuery(trpc.admin.categories.list.queryOptions())
  const [form, setForm] = useState<CourseFormState>(emptyCourseForm())
  const set = <K extends keyof CourseFormState>(key: K, value: CourseFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }))

  const fields = useFieldErrors<CourseField>()
  const { clear } = fields
  /** A text field or select bound to the form: its value, its change and the server's message for it. */
  const fieldOf = <K extends TextKey>(key: K) => ({
    error: fields.errors[key],
    value: form[key],
    // A select offers only the values its key takes.
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      set(key, event.target.value as CourseFormState[K]),
  })
  // Opening loads the course (or a blank form); closing discards whatever was pending.
  useEffect(() => {
    if (!open) return
    setForm(course ? formFromCourse(course) : emptyCourseForm(categories.data?.[0]?.id ?? ''))
    clear()
  }, [open, course, categories.data, clear])

  const done = useSavedThenClose(onClose)
  const onError = (error: unknown) => fields.fromError(error, COURSE_FIELDS)
  const create = useMutation(
    trpc.admin.courses.create.mutationOptions({ onSuccess: done('Course added successfully!'), onError }),
  )
  const update = useMutation(
    trpc.admin.courses.update.mutationOptions({ onSuccess: done('Course updated successfully!'), onError }),
  )
  const pending = create.isPending || update.isPending
  const fromCurriculum = curriculumLessonCount(form.curriculum) > 0

  function save() {
    const input = inputFromForm(form)
    if (course) update.mutate({ ...input, id: course.id })
    else create.mutate(input)
  }

  return (
    <AddEditDialog
      open={open}
      onClose={onClose}
      noun="Course"
      editing={course !== null}
      addDescription="Create a new course for your platform."
      wide
      fields={fields}
      pending={pending}
      className={grid}
      alertClassName={wide}
      onSubmit={save}
    >
      <TextField label="Title *" className={cx(fieldBox, wide)} {...fieldOf('title')} />
      <TextAreaField label="Description *" className={cx(fieldBox, wide)} {...fieldOf('description')} />
      <TextField label="Price ($)" {...fieldOf('price')} inputMode="decimal" />
      <TextField label="Price (£, optional)" {...fieldOf('priceGbp')} inputMode="decimal" />
      <TextField
        label={`Original price (${course?.currency ?? 'USD'}, optional)`}
        className={wide}
        {...fieldOf('originalPrice')}
        inputMode="decimal"
      />
      <SelectField label="Category" {...fieldOf('categoryId')}>
        <Options items={categories.data} value={(category) => category.id} label={(category) => category.name} />
      </SelectField>
      <TextField label="Instructor" {...fieldOf('instructorName')} />
      <SelectField label="Level" {...fieldOf('level')}>
        <Options items={COURSE_LEVELS} label={capitalise} />
      </SelectField>
      <SelectField label="Status" {...fieldOf('status')}>
        <option value="draft">Draft</option>
        <option value="published">Published</option>
      </SelectField>
      <TextField
        label="Lessons"
        {...fieldOf('lessons')}
        inputMode="numeric"
        disabled={fromCurriculum}
        value={fromCurriculum ? String(curriculumLessonCount(form.curriculum)) : form.lessons}
      />
      <TextField
        label="Duration (minutes)"
        {...fieldOf('durationMinutes')}
        inputMode="numeric"
        disabled={fromCurriculum}
        value={fromCurriculum ? 'From the curriculum' : form.durationMinutes}
      />
      <TextField label="Language" {...fieldOf('language')} />
      <div className={css({ display: 'flex', gap: '6', alignItems: 'center', fontSize: 'sm' })}>
        <CheckboxField label="Featured" checked={form.featured} onChange={(e) => set('featured', e.target.checked)} />
        <CheckboxField
          label="Certificate of completion"
          checked={form.certificate}
          onChange={(e) => set('certificate', e.target.checked)}
        />
        <CheckboxField
          label="Included in Premium"
          checked={form.includedInPremium}
          onChange={(e) => set('includedInPremium', e.target.checked)}
        />
      </div>
      <div className={wide}>
        <ImageField
          value={form.imageUrl}
          replacing={Boolean(course && form.imageUrl)}
          onChange={(url) => set('imageUrl', url)}
          error={fields.errors.imageUrl}
        />
      </div>
      <TextAreaField label="What you'll learn (one per line)" {...fieldOf('whatYouWillLearn')} />
      <TextAreaField label="Requirements (one per line)" {...fieldOf('requirements')} />
      {/* A curriculum error (a lesson without a title) is about the whole list: the group carries it. */}
      <fieldset
        className={cx(fieldBox, wide, bareFieldset)}
        aria-label="Curriculum"
        tabIndex={-1}
        {...fields.control('curriculum')}
      >
        {fields.message('curriculum')}
        <CurriculumEditor
          courseId={course?.id}
          sections={form.curriculum}
          onChange={(sections) => set('curriculum', sections)}
        />
      </fieldset>
    </AddEditDialog>
  )
}

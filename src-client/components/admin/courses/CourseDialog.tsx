// Add ('Add New Course') and edit ('Edit Course') dialogs. Validation is the server's: each message goes under its
// field (aria-invalid, aria-describedby) and the first invalid field takes focus.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { useFieldErrors } from '#client/components/ui/field-errors.tsx'
import { CheckboxField, SelectField, TextAreaField, TextField } from '#client/components/ui/form.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { COURSE_LEVELS, capitalise } from '#shared/constants.ts'
import { css, cx } from '#styled-system/css'
import { AdminDialog } from '../AdminDialog.tsx'
import { errorText, fieldBox } from '../styles.ts'
import { useTRPC } from '../use-staff.ts'
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
  const queryClient = useQueryClient()
  const categories = useQuery(trpc.admin.categories.list.queryOptions())
  const [form, setForm] = useState<CourseFormState>(emptyCourseForm())
  const set = <K extends keyof CourseFormState>(key: K, value: CourseFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }))

  const fields = useFieldErrors<CourseField>()
  const { clear } = fields
  // Opening loads the course (or a blank form); closing discards whatever was pending.
  useEffect(() => {
    if (!open) return
    setForm(course ? formFromCourse(course) : emptyCourseForm(categories.data?.[0]?.id ?? ''))
    clear()
  }, [open, course, categories.data, clear])

  const done = (message: string) => async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() })
    notify('success', message)
    onClose()
  }
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
    <AdminDialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onClose())}
      wide
      title={course ? 'Edit Course' : 'Add New Course'}
      description={course ? 'Update course information.' : 'Create a new course for your platform.'}
      footer={
        <>
          <button type="button" className={button({ variant: 'outline' })} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={fields.formId} className={button()} disabled={pending}>
            {pending ? 'Saving...' : course ? 'Update Course' : 'Save Course'}
          </button>
        </>
      }
    >
      <form
        {...SCRIPT_ONLY_FORM}
        id={fields.formId}
        ref={fields.formRef}
        noValidate
        className={grid}
        onSubmit={(event) => {
          event.preventDefault()
          save()
        }}
      >
        {fields.formError ? (
          <p role="alert" className={cx(errorText, wide)}>
            {fields.formError}
          </p>
        ) : null}
        <TextField
          label="Title *"
          className={cx(fieldBox, wide)}
          error={fields.errors.title}
          value={form.title}
          onChange={(e) => set('title', e.target.value)}
        />
        <TextAreaField
          label="Description *"
          className={cx(fieldBox, wide)}
          error={fields.errors.description}
          value={form.description}
          onChange={(e) => set('description', e.target.value)}
        />
        <TextField
          label="Price ($)"
          error={fields.errors.price}
          inputMode="decimal"
          value={form.price}
          onChange={(e) => set('price', e.target.value)}
        />
        <TextField
          label="Original price ($, optional)"
          error={fields.errors.originalPrice}
          inputMode="decimal"
          value={form.originalPrice}
          onChange={(e) => set('originalPrice', e.target.value)}
        />
        <SelectField
          label="Category"
          error={fields.errors.categoryId}
          value={form.categoryId}
          onChange={(e) => set('categoryId', e.target.value)}
        >
          {(categories.data ?? []).map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Instructor"
          error={fields.errors.instructorName}
          value={form.instructorName}
          onChange={(e) => set('instructorName', e.target.value)}
        />
        <SelectField
          label="Level"
          error={fields.errors.level}
          value={form.level}
          onChange={(e) => set('level', e.target.value as CourseFormState['level'])}
        >
          {COURSE_LEVELS.map((level) => (
            <option key={level} value={level}>
              {capitalise(level)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Status"
          error={fields.errors.status}
          value={form.status}
          onChange={(e) => set('status', e.target.value as CourseFormState['status'])}
        >
          <option value="draft">Draft</option>
          <option value="published">Published</option>
        </SelectField>
        <TextField
          label="Lessons"
          error={fields.errors.lessons}
          inputMode="numeric"
          disabled={fromCurriculum}
          value={fromCurriculum ? String(curriculumLessonCount(form.curriculum)) : form.lessons}
          onChange={(e) => set('lessons', e.target.value)}
        />
        <TextField
          label="Duration (minutes)"
          error={fields.errors.durationMinutes}
          inputMode="numeric"
          disabled={fromCurriculum}
          value={fromCurriculum ? 'From the curriculum' : form.durationMinutes}
          onChange={(e) => set('durationMinutes', e.target.value)}
        />
        <TextField
          label="Language"
          error={fields.errors.language}
          value={form.language}
          onChange={(e) => set('language', e.target.value)}
        />
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
        <TextAreaField
          label="What you'll learn (one per line)"
          error={fields.errors.whatYouWillLearn}
          value={form.whatYouWillLearn}
          onChange={(e) => set('whatYouWillLearn', e.target.value)}
        />
        <TextAreaField
          label="Requirements (one per line)"
          error={fields.errors.requirements}
          value={form.requirements}
          onChange={(e) => set('requirements', e.target.value)}
        />
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
      </form>
    </AdminDialog>
  )
}

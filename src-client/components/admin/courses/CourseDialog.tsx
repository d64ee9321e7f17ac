// Add ('Add New Course') and edit ('Edit Course') dialogs. Validation is the server's: its message is shown.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { COURSE_LEVELS, capitalise } from '../../../../src-shared/constants.ts'
import { css } from '../../../../styled-system/css'
import { button } from '../../ui/button.ts'
import { notify, notifyError } from '../../ui/toaster.tsx'
import { AdminDialog } from '../AdminDialog.tsx'
import { fieldClass, inputClass, textareaClass } from '../styles.ts'
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

  // Opening loads the course (or a blank form); closing discards whatever was pending.
  useEffect(() => {
    if (open) setForm(course ? formFromCourse(course) : emptyCourseForm(categories.data?.[0]?.id ?? ''))
  }, [open, course, categories.data])

  const done = (message: string) => async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() })
    notify('success', message)
    onClose()
  }
  const onError = (error: unknown) => notifyError(error)
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
          <button type="button" className={button()} disabled={pending} onClick={save}>
            {pending ? 'Saving...' : course ? 'Update Course' : 'Save Course'}
          </button>
        </>
      }
    >
      <form
        className={grid}
        onSubmit={(event) => {
          event.preventDefault()
          save()
        }}
      >
        <label className={`${fieldClass} ${wide}`}>
          Title *
          <input className={inputClass} value={form.title} onChange={(e) => set('title', e.target.value)} />
        </label>
        <label className={`${fieldClass} ${wide}`}>
          Description *
          <textarea
            className={textareaClass}
            value={form.description}
            onChange={(e) => set('description', e.target.value)}
          />
        </label>
        <label className={fieldClass}>
          Price ($)
          <input
            className={inputClass}
            inputMode="decimal"
            value={form.price}
            onChange={(e) => set('price', e.target.value)}
          />
        </label>
        <label className={fieldClass}>
          Original price ($, optional)
          <input
            className={inputClass}
            inputMode="decimal"
            value={form.originalPrice}
            onChange={(e) => set('originalPrice', e.target.value)}
          />
        </label>
        <label className={fieldClass}>
          Category
          <select className={inputClass} value={form.categoryId} onChange={(e) => set('categoryId', e.target.value)}>
            {(categories.data ?? []).map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        </label>
        <label className={fieldClass}>
          Instructor
          <input
            className={inputClass}
            value={form.instructorName}
            onChange={(e) => set('instructorName', e.target.value)}
          />
        </label>
        <label className={fieldClass}>
          Level
          <select
            className={inputClass}
            value={form.level}
            onChange={(e) => set('level', e.target.value as CourseFormState['level'])}
          >
            {COURSE_LEVELS.map((level) => (
              <option key={level} value={level}>
                {capitalise(level)}
              </option>
            ))}
          </select>
        </label>
        <label className={fieldClass}>
          Status
          <select
            className={inputClass}
            value={form.status}
            onChange={(e) => set('status', e.target.value as CourseFormState['status'])}
          >
            <option value="draft">Draft</option>
            <option value="published">Published</option>
          </select>
        </label>
        <label className={fieldClass}>
          Lessons
          <input
            className={inputClass}
            inputMode="numeric"
            disabled={fromCurriculum}
            value={fromCurriculum ? String(curriculumLessonCount(form.curriculum)) : form.lessons}
            onChange={(e) => set('lessons', e.target.value)}
          />
        </label>
        <label className={fieldClass}>
          Duration (minutes)
          <input
            className={inputClass}
            inputMode="numeric"
            disabled={fromCurriculum}
            value={fromCurriculum ? 'From the curriculum' : form.durationMinutes}
            onChange={(e) => set('durationMinutes', e.target.value)}
          />
        </label>
        <label className={fieldClass}>
          Language
          <input className={inputClass} value={form.language} onChange={(e) => set('language', e.target.value)} />
        </label>
        <div className={css({ display: 'flex', gap: '6', alignItems: 'center', fontSize: 'sm' })}>
          <label className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
            <input type="checkbox" checked={form.featured} onChange={(e) => set('featured', e.target.checked)} />
            Featured
          </label>
          <label className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
            <input type="checkbox" checked={form.certificate} onChange={(e) => set('certificate', e.target.checked)} />
            Certificate of completion
          </label>
          <label className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
            <input
              type="checkbox"
              checked={form.includedInPremium}
              onChange={(e) => set('includedInPremium', e.target.checked)}
            />
            Included in Premium
          </label>
        </div>
        <div className={wide}>
          <ImageField
            value={form.imageUrl}
            replacing={Boolean(course && form.imageUrl)}
            onChange={(url) => set('imageUrl', url)}
          />
        </div>
        <label className={fieldClass}>
          What you'll learn (one per line)
          <textarea
            className={textareaClass}
            value={form.whatYouWillLearn}
            onChange={(e) => set('whatYouWillLearn', e.target.value)}
          />
        </label>
        <label className={fieldClass}>
          Requirements (one per line)
          <textarea
            className={textareaClass}
            value={form.requirements}
            onChange={(e) => set('requirements', e.target.value)}
          />
        </label>
        <div className={wide}>
          <CurriculumEditor
            courseId={course?.id}
            sections={form.curriculum}
            onChange={(sections) => set('curriculum', sections)}
          />
        </div>
      </form>
    </AdminDialog>
  )
}

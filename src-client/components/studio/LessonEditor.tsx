// A lesson's editor (a dialog over the builder): title, free preview, and its content: Markdown text, a YouTube or
// Vimeo link, or an uploaded video (VideoUpload hands back a finished upload; its length comes from the file).
// The dialog opens while the lesson loads: its focus trap then starts on the footer, so the form, once there, takes
// the focus to its first field; Save lesson is aria-disabled until there is a form to save (and while it saves).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { AdminDialog } from '#client/components/admin/AdminDialog.tsx'
import { CancelSubmitFooter, DialogForm } from '#client/components/admin/DialogForm.tsx'
import { useFieldErrors } from '#client/components/ui/field-errors.tsx'
import { CheckboxField, TextAreaField, TextField } from '#client/components/ui/form.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatLessonDuration } from '#shared/lesson-duration.ts'
import type { UpdateLessonInput } from '#shared/schemas/studio.ts'
import { STUDIO_LIMITS } from '#shared/studio.ts'
import { css } from '#styled-system/css'
import { VideoUpload } from './VideoUpload.tsx'

type StudioLesson = RouterOutputs['studio']['lesson']
type ContentType = StudioLesson['type']

const FIELDS = ['title', 'content', 'bodyMarkdown', 'videoUrl', 'duration', 'uploadId'] as const
const TYPES: { value: ContentType; label: string }[] = [
  { value: 'text', label: 'Text (Markdown)' },
  { value: 'embed', label: 'YouTube or Vimeo link' },
  { value: 'upload', label: 'Uploaded video' },
  { value: 'quiz', label: 'Quiz' },
]
const column = css({ display: 'flex', flexDir: 'column', gap: '1' })

export default function LessonEditor({
  courseId,
  lessonId,
  onClose,
}: {
  courseId: string
  lessonId: string
  onClose: () => void
}) {
  const trpc = useTRPC()
  const lesson = useQuery({
    ...trpc.studio.lesson.queryOptions({ courseId, lessonId }, { staleTime: 0 }),
    // While its video is processing, the percent moves: look again every 3 s.
    refetchInterval: (query) => (query.state.data?.videoProcessingPercent != null ? 3000 : false),
  })
  const fields = useFieldErrors<(typeof FIELDS)[number]>()
  const queryClient = useQueryClient()
  // Here rather than in the form: the footer's Save lesson says when it saves.
  const save = useMutation(
    trpc.studio.updateLesson.mutationOptions({
      onSuccess: async (saved) => {
        queryClient.setQueryData(trpc.studio.lesson.queryKey({ courseId, lessonId }), saved)
        await queryClient.invalidateQueries({ queryKey: trpc.studio.course.queryKey({ courseId }) })
        notify('success', 'Lesson saved')
        onClose()
      },
      onError: (error) => fields.fromError(error, FIELDS),
    }),
  )
  return (
    <AdminDialog
      open
      wide
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Edit lesson"
      description={lesson.data?.pendingReview ? 'New lesson: learners see it once staff approve it.' : undefined}
      footer={
        <CancelSubmitFooter
          formId={fields.formId}
          label="Save lesson"
          pending={save.isPending}
          // Nothing to save until the lesson is loaded: aria-disabled (while-pending.ts), so it keeps the focus.
          disabled={!lesson.data || save.isPending}
          onCancel={onClose}
        />
      }
    >
      {lesson.isPending ? (
        <LoadingState label="Loading the lesson…" />
      ) : lesson.isError ? (
        <ErrorState title="Could not load the lesson" error={lesson.error} onRetry={() => lesson.refetch()} />
      ) : (
        <LessonForm
          lesson={lesson.data}
          courseId={courseId}
          fields={fields}
          saving={save.isPending}
          onSave={(input) => save.mutate(input)}
        />
      )}
    </AdminDialog>
  )
}

function LessonForm({
  lesson,
  courseId,
  fields,
  saving,
  onSave,
}: {
  lesson: StudioLesson
  courseId: string
  fields: ReturnType<typeof useFieldErrors<(typeof FIELDS)[number]>>
  saving: boolean
  onSave: (input: UpdateLessonInput) => void
}) {
  const [type, setType] = useState<ContentType>(lesson.type)
  const [upload, setUpload] = useState<{ uploadId: string; fileName: string; durationSeconds: number | null }>()
  const duration = formatLessonDuration(lesson.durationSeconds)
  const { formRef } = fields
  // The form appears after the dialog opened (the lesson loading), when the focus trap had put the focus on the
  // footer's Cancel: the keyboard starts at the first field instead, unless the focus is in the form already.
  useEffect(() => {
    const form = formRef.current
    const title = form?.elements.namedItem('title')
    if (title instanceof HTMLInputElement && !form?.contains(document.activeElement)) title.focus()
  }, [formRef])

  return (
    <DialogForm
      fields={fields}
      onSubmit={(event) => {
        const data = new FormData(event.currentTarget)
        const text = (name: string) => String(data.get(name) ?? '')
        const common = {
          courseId,
          lessonId: lesson.id,
          title: text('title'),
          isPreview: data.get('isPreview') === 'on',
        }
        const bodyMarkdown = text('bodyMarkdown')
        onSave({
          ...common,
          content:
            type === 'text'
              ? { type, bodyMarkdown, duration: text('duration') }
              : type === 'embed'
                ? { type, bodyMarkdown, videoUrl: text('videoUrl'), duration: text('duration') }
                : type === 'quiz'
                  ? { type, bodyMarkdown, duration: text('duration') }
                  : { type, bodyMarkdown, ...(upload ? { uploadId: upload.uploadId } : {}) },
        })
      }}
    >
      <TextField
        label="Lesson title"
        name="title"
        required
        maxLength={STUDIO_LIMITS.title}
        defaultValue={lesson.title}
        error={fields.errors.title}
        className={column}
      />
      <CheckboxField
        label="Free preview (anyone can watch it once the course is published)"
        name="isPreview"
        defaultChecked={lesson.isPreview}
      />
      <fieldset className={css({ borderWidth: 0, p: 0, m: 0, display: 'flex', flexDir: 'column', gap: '2' })}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '1' })}>Lesson content</legend>
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '4' })}>
          {TYPES.map((option) => (
            <label
              key={option.value}
              className={css({ display: 'inline-flex', gap: '2', alignItems: 'center', minH: '8' })}
            >
              <input
                type="radio"
                name="type"
                value={option.value}
                checked={type === option.value}
                onChange={() => setType(option.value)}
                className={css({ accentColor: 'accent' })}
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      {fields.errors.content ? (
        <p role="alert" className={css({ color: 'danger', fontSize: 'sm' })}>
          {fields.errors.content}
        </p>
      ) : null}
      {type === 'quiz' ? (
        <p className={css({ fontSize: 'sm' })} data-testid="quiz-editor-note">
          {lesson.type === 'quiz' ? (
            <Link
              to="/studio/courses/$courseId/quizzes/$lessonId"
              params={{ courseId, lessonId: lesson.id }}
              className={css({ color: 'accent', textDecoration: 'underline' })}
            >
              Edit the questions, pass mark and attempts
            </Link>
          ) : (
            'Save the lesson as a quiz; then write its questions, pass mark and attempts on the quiz page.'
          )}
        </p>
      ) : null}
      {type === 'embed' ? (
        <TextField
          label="YouTube or Vimeo address"
          name="videoUrl"
          type="url"
          placeholder="https://www.youtube.com/watch?v=…"
          defaultValue={lesson.videoUrl}
          error={fields.errors.videoUrl}
          className={column}
        />
      ) : null}
      {type === 'upload' ? (
        <div className={column}>
          <p className={css({ fontSize: 'sm' })}>
            {upload
              ? `Ready: ${upload.fileName}. Save the lesson to use it.`
              : lesson.hasVideoFile
                ? `A video is uploaded (${formatLessonDuration(lesson.videoDurationSeconds ?? lesson.durationSeconds)}). ${lesson.videoProcessingPercent !== null ? `Processing ${lesson.videoProcessingPercent} %: the course can be submitted once it is ready. ` : ''}Upload another to replace it.`
                : 'Upload the lesson’s video; its length is read from the file.'}
          </p>
          <VideoUpload courseId={courseId} onUploaded={(finished) => setUpload(finished)} disabled={saving} />
          {fields.errors.uploadId ? (
            <p role="alert" className={css({ color: 'danger', fontSize: 'sm' })}>
              {fields.errors.uploadId}
            </p>
          ) : null}
        </div>
      ) : (
        <TextField
          label="Duration (m:ss)"
          name="duration"
          inputMode="numeric"
          defaultValue={duration}
          error={fields.errors.duration}
          className={css({ display: 'flex', flexDir: 'column', gap: '1', maxW: '10rem' })}
        />
      )}
      <TextAreaField
        label={
          type === 'text'
            ? 'Lesson text (Markdown)'
            : type === 'quiz'
              ? 'Introduction (Markdown, optional)'
              : 'Notes under the video (Markdown, optional)'
        }
        name="bodyMarkdown"
        rows={type === 'text' ? 12 : 5}
        defaultValue={lesson.bodyMarkdown}
        error={fields.errors.bodyMarkdown}
        className={column}
      />
      {saving ? <p aria-live="polite">Saving…</p> : null}
    </DialogForm>
  )
}

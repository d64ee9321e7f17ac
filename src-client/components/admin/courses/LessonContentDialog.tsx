// A saved lesson's content (editor and up): kind, Markdown text, the video (an uploaded file, checked by content on
// the server, or a YouTube/Vimeo link) and downloadable attachments. Saved on its own, apart from the course form.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { useFieldErrors } from '#client/components/ui/field-errors.tsx'
import { SelectField, TextAreaField, TextField } from '#client/components/ui/form.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { pickWhilePending } from '#client/lib/while-pending.ts'
import { formatBytes } from '#shared/bytes.ts'
import { formatLessonDuration } from '#shared/lesson-duration.ts'
import { DEFAULT_LESSON_VIDEO_MAX_BYTES, LESSON_ATTACHMENT_MAX_BYTES, LESSON_UPLOAD_MESSAGES } from '#shared/uploads.ts'
import { css } from '#styled-system/css'
import { AdminDialog } from '../AdminDialog.tsx'
import { CancelSubmitFooter, DialogForm } from '../DialogForm.tsx'
import { inputClass } from '../styles.ts'

interface Attachment {
  id?: string
  name: string
  key: string
}
interface ContentState {
  kind: 'article' | 'video' | 'quiz'
  bodyMarkdown: string
  videoUrl: string
  videoKey: string | null
  /** The uploaded video's length, read from the file by the server. */
  videoDurationSeconds?: number | null
  attachments: Attachment[]
}

async function upload(
  endpoint: string,
  file: File,
): Promise<{ key: string; name: string; durationSeconds?: number } | null> {
  const body = new FormData()
  body.append('file', file)
  try {
    const response = await fetch(endpoint, { method: 'POST', body, credentials: 'same-origin' })
    const answer = (await response.json().catch(() => ({}))) as {
      key?: string
      name?: string
      message?: string
      durationSeconds?: number
    }
    if (response.ok && answer.key) {
      return { key: answer.key, name: answer.name ?? file.name, durationSeconds: answer.durationSeconds }
    }
    notify('error', answer.message ?? 'Upload failed. Please try again.')
  } catch {
    notify('error', 'Upload failed. Please try again.')
  }
  return null
}

export default function LessonContentDialog({
  courseId,
  lessonId,
  onClose,
}: {
  courseId: string
  lessonId: string
  onClose: () => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const content = useQuery(trpc.admin.courses.lessonContent.queryOptions({ courseId, lessonId }))
  const [form, setForm] = useState<ContentState | null>(null)
  const [uploading, setUploading] = useState(false)
  const fields = useFieldErrors<'kind' | 'videoUrl' | 'bodyMarkdown'>()
  useEffect(() => {
    if (content.data) {
      const { videoMaxBytes: _limit, ...saved } = content.data
      setForm({ ...saved, attachments: saved.attachments })
    }
  }, [content.data])
  const save = useMutation(
    trpc.admin.courses.updateLessonContent.mutationOptions({
      onSuccess: () => {
        notify('success', 'Lesson saved')
        void queryClient.invalidateQueries({
          queryKey: trpc.admin.courses.lessonContent.queryKey({ courseId, lessonId }),
        })
        onClose()
      },
      // A bad link or a too-long text goes under its field; an upload to redo above the form.
      onError: (error) => fields.fromError(error, ['kind', 'videoUrl', 'bodyMarkdown']),
    }),
  )
  const submit = () => {
    if (form) save.mutate({ courseId, lessonId, ...form })
  }
  const videoMax = content.data?.videoMaxBytes ?? DEFAULT_LESSON_VIDEO_MAX_BYTES
  const set = <K extends keyof ContentState>(key: K, value: ContentState[K]) =>
    setForm((f) => (f ? { ...f, [key]: value } : f))
  const onFile = async (
    endpoint: string,
    file: File | undefined,
    limit: { maxBytes: number; tooLarge: string },
    apply: (stored: { key: string; name: string; durationSeconds?: number }) => void,
  ) => {
    if (!file) return
    // The server refuses it too, but only once the bytes up to the limit have been sent.
    if (file.size > limit.maxBytes) {
      notify('error', limit.tooLarge)
      return
    }
    setUploading(true)
    const stored = await upload(endpoint, file)
    setUploading(false)
    if (stored) apply(stored)
  }

  return (
    <AdminDialog
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title={`Lesson content${content.data ? `: ${content.data.title}` : ''}`}
      description="What learners see when they open this lesson."
      footer={
        <CancelSubmitFooter
          formId={fields.formId}
          label="Save Lesson"
          pending={save.isPending}
          disabled={!form || save.isPending || uploading}
          onCancel={onClose}
        />
      }
    >
      {content.isPending ? <LoadingState label="Loading lesson…" /> : null}
      {content.isError ? (
        <ErrorState title="Failed to load the lesson" error={content.error} onRetry={() => void content.refetch()} />
      ) : null}
      {form ? (
        <DialogForm
          fields={fields}
          className={css({ display: 'grid', gap: '4' })}
          onSubmit={(event) => {
            // Portalled out of the course form in the DOM, but React bubbles a submit through its own tree.
            event.stopPropagation()
            submit()
          }}
        >
          <SelectField
            label="Lesson kind"
            value={form.kind}
            onChange={(e) => set('kind', e.target.value as ContentState['kind'])}
          >
            <option value="article">Article</option>
            <option value="video">Video</option>
            <option value="quiz">Quiz</option>
          </SelectField>
          {form.kind === 'quiz' ? (
            <p className={css({ fontSize: 'sm' })}>
              {content.data?.kind === 'quiz' ? (
                <Link
                  to="/admin/quizzes/$courseId/$lessonId"
                  params={{ courseId, lessonId }}
                  className={css({ color: 'accent', textDecoration: 'underline' })}
                >
                  Edit the quiz’s questions and pass mark
                </Link>
              ) : (
                'Save the lesson as a quiz, then open it again to write its questions.'
              )}
            </p>
          ) : null}
          {form.kind === 'video' ? (
            <>
              <TextField
                label="YouTube or Vimeo link (leave empty to use an uploaded video)"
                error={fields.errors.videoUrl}
                value={form.videoUrl}
                onChange={(e) => set('videoUrl', e.target.value)}
              />
              <TextField
                label={`Upload a video (MP4, MOV or WebM, up to ${formatBytes(videoMax)})`}
                type="file"
                accept="video/mp4,video/webm,video/quicktime"
                {...pickWhilePending(
                  uploading,
                  (e) =>
                    void onFile(
                      '/api/admin/lesson-video',
                      e.target.files?.[0],
                      { maxBytes: videoMax, tooLarge: LESSON_UPLOAD_MESSAGES.videoTooLarge(videoMax) },
                      (stored) =>
                        setForm((f) =>
                          f ? { ...f, videoKey: stored.key, videoDurationSeconds: stored.durationSeconds ?? null } : f,
                        ),
                    ),
                )}
              />
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                {uploading
                  ? 'Uploading…'
                  : form.videoKey
                    ? form.videoDurationSeconds
                      ? `A video file is attached (${formatLessonDuration(form.videoDurationSeconds)}, the lesson's duration).`
                      : 'A video file is attached.'
                    : 'No video file yet.'}
              </p>
            </>
          ) : null}
          <TextAreaField
            label="Lesson text (Markdown)"
            error={fields.errors.bodyMarkdown}
            controlClassName={`${inputClass} ${css({ minH: '48', fontFamily: 'mono', py: '2' })}`}
            value={form.bodyMarkdown}
            onChange={(e) => set('bodyMarkdown', e.target.value)}
          />
          <fieldset className={css({ display: 'grid', gap: '2' })}>
            <legend className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>Attachments</legend>
            {form.attachments.map((file, index) => (
              <div key={file.key} className={css({ display: 'flex', gap: '2', alignItems: 'center', fontSize: 'sm' })}>
                <span className={css({ flex: 1 })}>{file.name}</span>
                <button
                  type="button"
                  className={button({ variant: 'ghost', size: 'sm' })}
                  aria-label={`Remove attachment ${file.name}`}
                  onClick={() =>
                    set(
                      'attachments',
                      form.attachments.filter((_, i) => i !== index),
                    )
                  }
                >
                  Remove
                </button>
              </div>
            ))}
            <TextField
              label={`Add a file (PDF, ZIP, image or text, up to ${formatBytes(LESSON_ATTACHMENT_MAX_BYTES)})`}
              type="file"
              {...pickWhilePending(
                uploading,
                (e) =>
                  void onFile(
                    '/api/admin/lesson-attachment',
                    e.target.files?.[0],
                    { maxBytes: LESSON_ATTACHMENT_MAX_BYTES, tooLarge: LESSON_UPLOAD_MESSAGES.fileTooLarge },
                    (stored) => setForm((f) => (f ? { ...f, attachments: [...f.attachments, stored] } : f)),
                  ),
              )}
            />
          </fieldset>
        </DialogForm>
      ) : null}
    </AdminDialog>
  )
}

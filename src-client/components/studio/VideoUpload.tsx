// A lesson video sent with the tus protocol (http/tus-uploads.ts): in 8 MB pieces, with progress, speed and time
// left, Pause / Resume, retries after a dropped connection (and a fresh start when the browser is back online), and
// resuming after a page reload (tus-js-client keeps the upload's address in localStorage, keyed by the file: the
// creator picks the same file again and it continues where it stopped). The server judges the file and answers
// refusals in words, shown here. tus-js-client is loaded only when a file is chosen.
// The lesson editor names the course the video is for (`courseId`, decision 0138): any editor of the course may upload
// it, and it counts against the course owner's plan. "My video uploads" names none (the creator's own).
// The application to teach uses it too for its sample video (purpose "application": any signed-in person, 500 MB).
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { fileInputClass } from '#client/components/ui/form.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { pickWhilePending } from '#client/lib/while-pending.ts'
import { formatBytes, formatSeconds } from '#shared/bytes.ts'
import { APPLICATION_VIDEO_MAX_BYTES } from '#shared/creator-applications.ts'
import { CREATOR_VIDEO_MAX_BYTES } from '#shared/creator-plans.ts'
import { css } from '#styled-system/css'

export interface UploadedVideo {
  uploadId: string
  fileName: string
  sizeBytes: number
  durationSeconds: number | null
}

export interface VideoUploadProps {
  onUploaded: (upload: UploadedVideo) => void
  disabled?: boolean
  /** What the video is for: a lesson (creators, 4 GB) or an application's sample video (anyone signed in, 500 MB). */
  purpose?: 'lesson' | 'application'
  /** The course a lesson video is for: its editors may upload and claim it, its owner's plan counts it. */
  courseId?: string
  /** The file field's label (a lesson video's by default). */
  label?: string
  /** While an upload is in progress, paused or being checked (the page may wait for it). */
  onBusyChange?: (busy: boolean) => void
  /** The uploaded video was set aside ("Upload another video"). */
  onCleared?: () => void
}

const LIMITS = {
  lesson: {
    maxBytes: CREATOR_VIDEO_MAX_BYTES,
    tooLarge: 'Videos can be up to 4 GB: please export a smaller file',
    label: 'Lesson video (MP4, MOV or WebM, up to 4 GB)',
  },
  application: {
    maxBytes: APPLICATION_VIDEO_MAX_BYTES,
    tooLarge: 'A sample video can be up to 500 MB: please export a shorter or smaller one',
    label: 'Sample video (MP4, MOV or WebM, up to 500 MB)',
  },
} as const

type TusUpload = import('tus-js-client').Upload

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading' }
  | { kind: 'paused' }
  | { kind: 'offline' }
  | { kind: 'finishing' }
  | { kind: 'done'; fileName: string }
  | { kind: 'failed'; message: string }

const ENDPOINT = '/api/uploads/tus'
const CHUNK_BYTES = 8 * 1024 * 1024
const ACCEPT = 'video/mp4,video/webm,video/quicktime,.mp4,.m4v,.mov,.webm'
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000]
const FAILED = 'The upload failed. Please try again.'

/** The server's sentence from a refused tus request (or one still refused by an outage after the retries), or ours. */
function refusalOf(error: unknown): string {
  const response = (error as { originalResponse?: { getStatus(): number; getBody(): string } | null }).originalResponse
  const status = response?.getStatus() ?? 0
  const body = response?.getBody()?.trim() ?? ''
  const said = (status >= 400 && status < 500) || status === 503
  if (said && body && body.length < 300 && !body.startsWith('<')) return body
  if (status === 401) return 'Please sign in again to upload videos.'
  return FAILED
}

/** A network failure rather than a refusal: no answer at all, or a server error worth retrying later. */
const isConnectionError = (error: unknown) =>
  !(error as { originalResponse?: unknown }).originalResponse ||
  ((error as { originalResponse: { getStatus(): number } }).originalResponse.getStatus() ?? 0) === 0

interface Progress {
  sent: number
  total: number
  /** Bytes per second over the last few seconds. */
  speed: number | null
}

/** Unfinished uploads this browser remembers (tus-js-client's localStorage entries), for the "pick it again" hint. */
function rememberedUploads(purpose: 'lesson' | 'application'): { fileName: string; size: number }[] {
  try {
    const found: { fileName: string; size: number }[] = []
    for (let i = 0; i < window.localStorage.length; i++) {
      const key = window.localStorage.key(i)
      if (!key?.startsWith('tus::')) continue
      const entry = JSON.parse(window.localStorage.getItem(key) ?? 'null') as {
        size?: number
        metadata?: { filename?: string; purpose?: string }
        uploadUrl?: string
      } | null
      if ((entry?.metadata?.purpose ?? 'lesson') !== purpose) continue
      if (entry?.uploadUrl?.includes(ENDPOINT) && entry.metadata?.filename) {
        found.push({ fileName: entry.metadata.filename, size: entry.size ?? 0 })
      }
    }
    return found
  } catch {
    return []
  }
}

export function VideoUpload({
  onUploaded,
  disabled = false,
  purpose = 'lesson',
  courseId,
  label,
  onBusyChange,
  onCleared,
}: VideoUploadProps) {
  const limits = LIMITS[purpose]
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const inputId = useId()
  const statusId = useId()
  const [ready, setReady] = useState(false)
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' })
  const [progress, setProgress] = useState<Progress | null>(null)
  const [file, setFile] = useState<File | null>(null)
  const [remembered, setRemembered] = useState<{ fileName: string; size: number }[]>([])
  const uploadRef = useRef<TusUpload | null>(null)
  const samples = useRef<{ at: number; sent: number }[]>([])
  const inputRef = useRef<HTMLInputElement>(null)
  const onUploadedRef = useRef(onUploaded)
  onUploadedRef.current = onUploaded
  const onBusyChangeRef = useRef(onBusyChange)
  onBusyChangeRef.current = onBusyChange

  // The uploader works once the page's script runs; until then the control says it is getting ready.
  useEffect(() => {
    setReady(true)
    setRemembered(rememberedUploads(purpose))
    return () => {
      void uploadRef.current?.abort()
    }
  }, [purpose])

  // Back online after the connection dropped: continue from where the server says it stopped.
  useEffect(() => {
    if (phase.kind !== 'offline') return
    const resume = () => {
      setPhase({ kind: 'uploading' })
      uploadRef.current?.start()
    }
    window.addEventListener('online', resume)
    // The connection may have come back without the browser noticing: try again now and then.
    const timer = window.setInterval(() => {
      if (navigator.onLine) resume()
    }, 5000)
    return () => {
      window.removeEventListener('online', resume)
      window.clearInterval(timer)
    }
  }, [phase.kind])

  async function finished(upload: TusUpload, chosen: File) {
    setPhase({ kind: 'finishing' })
    const uploadId = upload.url?.split('/').pop() ?? ''
    if (purpose === 'application') {
      // Stored under the applicant's own files; the application takes it by its id (the server checks it is theirs).
      setPhase({ kind: 'done', fileName: chosen.name })
      setRemembered(rememberedUploads(purpose))
      onUploadedRef.current({ uploadId, fileName: chosen.name, sizeBytes: chosen.size, durationSeconds: null })
      return
    }
    try {
      const video = await queryClient.fetchQuery({
        ...trpc.creatorUploads.get.queryOptions({ uploadId }),
        staleTime: 0,
      })
      setPhase({ kind: 'done', fileName: video.fileName || chosen.name })
      setRemembered(rememberedUploads(purpose))
      onUploadedRef.current({
        uploadId: video.uploadId,
        fileName: video.fileName,
        sizeBytes: video.sizeBytes,
        durationSeconds: video.durationSeconds,
      })
    } catch {
      setPhase({
        kind: 'failed',
        message: 'The video was uploaded but could not be read back. Please reload the page.',
      })
    }
  }

  async function start(chosen: File) {
    setFile(chosen)
    samples.current = []
    setProgress({ sent: 0, total: chosen.size, speed: null })
    if (chosen.size === 0) return setPhase({ kind: 'failed', message: 'The video is empty' })
    if (chosen.size > limits.maxBytes) return setPhase({ kind: 'failed', message: limits.tooLarge })
    setPhase({ kind: 'uploading' })
    let tus: typeof import('tus-js-client')
    try {
      tus = await import('tus-js-client')
    } catch {
      return setPhase({
        kind: 'failed',
        message: 'The uploader could not load. Please check your connection and try again.',
      })
    }
    const upload: TusUpload = new tus.Upload(chosen, {
      endpoint: ENDPOINT,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      metadata: {
        filename: chosen.name,
        filetype: chosen.type || 'video/mp4',
        ...(purpose === 'application' ? { purpose } : {}),
        ...(purpose === 'lesson' && courseId ? { courseId } : {}),
      },
      // A sample video resumes only as a sample video (the same file may also be a lesson's upload), and a video for
      // a course only for that course (the upload belongs to it).
      ...(purpose === 'application' || courseId
        ? {
            fingerprint: async (input: unknown) => {
              const file = input as File
              const kind = purpose === 'application' ? ['tus-application'] : ['tus-course', courseId]
              return [...kind, file.name, file.type, file.size, file.lastModified].join('-')
            },
          }
        : {}),
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      // Offline: stop retrying and wait for the connection (the effect above starts it again).
      onShouldRetry: (error) => {
        if (typeof navigator !== 'undefined' && navigator.onLine === false) return false
        const status = error.originalResponse?.getStatus() ?? 0
        return !(status >= 400 && status < 500) || status === 409 || status === 423
      },
      onProgress: (sent, total) => {
        const now = performance.now()
        const window_ = samples.current.filter((sample) => now - sample.at < 5000)
        window_.push({ at: now, sent })
        samples.current = window_
        const first = window_[0]
        const elapsed = first ? (now - first.at) / 1000 : 0
        const speed = first && elapsed >= 0.5 && sent > first.sent ? (sent - first.sent) / elapsed : null
        setProgress({ sent, total, speed })
      },
      onError: (error) => {
        if (isConnectionError(error)) {
          setPhase({ kind: 'offline' })
          return
        }
        setPhase({ kind: 'failed', message: refusalOf(error) })
      },
      onSuccess: () => {
        void finished(upload, chosen)
      },
    })
    uploadRef.current = upload
    try {
      // The same file chosen after a reload continues where it stopped.
      const previous = await upload.findPreviousUploads()
      const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0]
      if (latest) upload.resumeFromPreviousUpload(latest)
    } catch {
      // Nothing remembered: a new upload.
    }
    upload.start()
  }

  function pause() {
    void uploadRef.current?.abort()
    setPhase({ kind: 'paused' })
  }

  function resume() {
    setPhase({ kind: 'uploading' })
    samples.current = []
    uploadRef.current?.start()
  }

  function reset() {
    void uploadRef.current?.abort()
    uploadRef.current = null
    setFile(null)
    setProgress(null)
    setPhase({ kind: 'idle' })
    if (inputRef.current) inputRef.current.value = ''
    onCleared?.()
  }

  const busy =
    phase.kind === 'uploading' || phase.kind === 'paused' || phase.kind === 'offline' || phase.kind === 'finishing'
  useEffect(() => {
    onBusyChangeRef.current?.(busy)
  }, [busy])
  const percent = progress && progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0
  const timeLeft =
    progress?.speed && progress.speed > 0 ? formatSeconds((progress.total - progress.sent) / progress.speed) : null

  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '3', maxW: 'full' })} data-testid="video-upload">
      <div className={css({ display: 'flex', flexDir: 'column', gap: '1' })}>
        <label htmlFor={inputId} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
          {label ?? limits.label}
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept={ACCEPT}
          // Disabled only until the page's script runs; while an upload (or the form's save) runs it keeps the focus
          // and takes no other file (pickWhilePending).
          disabled={!ready}
          aria-describedby={statusId}
          {...pickWhilePending(Boolean(disabled) || busy, (event) => {
            const chosen = event.currentTarget.files?.[0]
            if (chosen) void start(chosen)
          })}
          className={fileInputClass}
        />
      </div>

      <div id={statusId} aria-live="polite" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        {!ready ? 'Getting the uploader ready…' : null}
        {ready && phase.kind === 'idle' && remembered.length > 0 ? (
          <span data-testid="video-upload-remembered">
            Unfinished: {remembered.map((entry) => `${entry.fileName} (${formatBytes(entry.size)})`).join(', ')}. Choose
            the same file to continue where it stopped.
          </span>
        ) : null}
      </div>

      {file && progress && phase.kind !== 'idle' && phase.kind !== 'failed' ? (
        <div className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
          <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '2', flexWrap: 'wrap' })}>
            <span className={css({ fontWeight: 'medium', wordBreak: 'break-all' })}>{file.name}</span>
            <span data-testid="video-upload-percent">{percent}%</span>
          </div>
          <progress
            aria-label={`Uploading ${file.name}`}
            max={100}
            value={percent}
            className={css({
              w: 'full',
              h: '3',
              appearance: 'none',
              borderRadius: 'full',
              overflow: 'hidden',
              bg: 'gray.200',
              '&::-webkit-progress-bar': { bg: 'gray.200', borderRadius: 'full' },
              '&::-webkit-progress-value': { bg: 'accent', borderRadius: 'full' },
              '&::-moz-progress-bar': { bg: 'accent', borderRadius: 'full' },
            })}
          />
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })} data-testid="video-upload-status">
            {formatBytes(progress.sent)} of {formatBytes(progress.total)}
            {phase.kind === 'uploading' && progress.speed ? ` · ${formatBytes(progress.speed)}/s` : ''}
            {phase.kind === 'uploading' && timeLeft ? ` · ${timeLeft} left` : ''}
            {phase.kind === 'paused' ? ' · Paused' : ''}
            {phase.kind === 'offline' ? ' · Connection lost: the upload continues when you are back online' : ''}
            {phase.kind === 'finishing' ? ' · Checking the video…' : ''}
            {phase.kind === 'done' ? ' · Uploaded' : ''}
          </p>
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            {phase.kind === 'uploading' ? (
              <button type="button" className={button({ variant: 'outline' })} onClick={pause}>
                Pause
              </button>
            ) : null}
            {phase.kind === 'paused' || phase.kind === 'offline' ? (
              <button type="button" className={button({ variant: 'outline' })} onClick={resume}>
                Resume
              </button>
            ) : null}
            {phase.kind === 'done' ? (
              <button type="button" className={button({ variant: 'ghost' })} onClick={reset}>
                Upload another video
              </button>
            ) : null}
          </div>
        </div>
      ) : null}

      {phase.kind === 'done' ? (
        <p role="status" className={css({ color: 'success', fontWeight: 'medium' })}>
          {phase.fileName} uploaded.
        </p>
      ) : null}
      {phase.kind === 'failed' ? (
        <div role="alert" className={css({ display: 'flex', flexDir: 'column', gap: '2', alignItems: 'flex-start' })}>
          <p className={css({ color: 'danger' })}>{phase.message}</p>
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={reset}>
            Choose another file
          </button>
        </div>
      ) : null}
    </div>
  )
}

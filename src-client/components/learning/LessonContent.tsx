// A lesson's content as the server sent it: the video (a stored file played here, or a YouTube/Vimeo embed),
// the article (HTML the server rendered from Markdown and sanitised) and the attachments. Used by the player and
// by the course page's preview dialog.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'
import { markdownArticle as article } from '../ui/markdown-article.ts'
import { notify } from '../ui/toaster.tsx'
import { EmbedMedia, type EmbedProvider, embedApiSrc, frameChannel } from './embed-media.ts'
import { type PlaybackMedia, type ProgressWrite, useVideoProgress } from './video-progress.ts'

type Lesson = RouterOutputs['learning']['lesson']
export type OpenLesson = Extract<Lesson, { locked: false }>

function formatSize(bytes: number) {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} kB`
}

export function LessonContent({ lesson, trackProgress }: { lesson: OpenLesson; trackProgress: boolean }) {
  const { content } = lesson
  return (
    <div className={css({ display: 'grid', gap: '6' })}>
      {content.video?.type === 'file' ? (
        <LessonVideo lesson={lesson} src={content.video.src} trackProgress={trackProgress} />
      ) : null}
      {content.video?.type === 'embed' ? (
        <LessonEmbed
          lesson={lesson}
          src={content.video.src}
          provider={content.video.provider}
          trackProgress={trackProgress}
        />
      ) : null}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered from Markdown and sanitised on the server (learning/markdown.ts) */}
      <div className={article} data-testid="lesson-article" dangerouslySetInnerHTML={{ __html: content.html }} />
      {content.attachments.length > 0 ? (
        <section aria-labelledby="attachments-title">
          <h2 id="attachments-title" className={css({ fontWeight: 'semibold', mb: '2' })}>
            Downloads
          </h2>
          <ul className={css({ display: 'grid', gap: '2' })}>
            {content.attachments.map((file) => (
              <li key={file.id}>
                <a href={file.url} download className={css({ color: 'accent', textDecoration: 'underline' })}>
                  {file.name}
                </a>{' '}
                <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>({formatSize(file.sizeBytes)})</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  )
}

/** Saves progress writes; refreshes the lesson and the course when one completes the lesson (or the course). */
function useSaveProgress(lesson: OpenLesson) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const save = useMutation(
    trpc.learning.saveProgress.mutationOptions({
      onSuccess: (result) => {
        if (result.completed && !lesson.progress?.completed) {
          void queryClient.invalidateQueries({ queryKey: trpc.learning.course.queryKey({ courseId: lesson.courseId }) })
          void queryClient.invalidateQueries({
            queryKey: trpc.learning.lesson.queryKey({ courseId: lesson.courseId, lessonId: lesson.id }),
          })
          if (result.courseCompleted) notify('success', 'Course completed!', 'Congratulations on finishing the course.')
        }
      },
    }),
  )
  return (input: ProgressWrite) => save.mutate(input)
}

function progressOf(lesson: OpenLesson, trackProgress: boolean) {
  return {
    courseId: lesson.courseId,
    lessonId: lesson.id,
    resumeAt: lesson.progress?.positionSeconds ?? 0,
    enabled: trackProgress,
  }
}

function LessonVideo({ lesson, src, trackProgress }: { lesson: OpenLesson; src: string; trackProgress: boolean }) {
  const video = useRef<HTMLVideoElement>(null)
  useVideoProgress(video, progressOf(lesson, trackProgress), useSaveProgress(lesson))
  return (
    // biome-ignore lint/a11y/useMediaCaption: the demo and uploaded lesson videos have no caption tracks yet
    <video
      ref={video}
      src={src}
      controls
      preload="metadata"
      data-testid="lesson-video"
      className={css({ w: 'full', aspectRatio: '16/9', bg: 'black', borderRadius: 'card' })}
    />
  )
}

/** A YouTube/Vimeo lesson: the embed, told to report playback by postMessage, tracked like a stored video. */
function LessonEmbed({
  lesson,
  src,
  provider,
  trackProgress,
}: {
  lesson: OpenLesson
  src: string
  provider: EmbedProvider
  trackProgress: boolean
}) {
  const frame = useRef<HTMLIFrameElement>(null)
  const [media, setMedia] = useState<EmbedMedia | null>(null)
  const apiSrc = useMemo(() => embedApiSrc(src, provider, window.location.origin), [src, provider])
  useEffect(() => () => media?.destroy(), [media])
  const mediaRef = useMemo(() => ({ current: media as PlaybackMedia | null }), [media])
  useVideoProgress(mediaRef, progressOf(lesson, trackProgress), useSaveProgress(lesson))
  return (
    <iframe
      ref={frame}
      src={apiSrc}
      title={lesson.title}
      allow="fullscreen; picture-in-picture"
      referrerPolicy="strict-origin-when-cross-origin"
      data-testid="lesson-embed"
      onLoad={() => {
        if (frame.current && trackProgress) setMedia(new EmbedMedia(provider, frameChannel(frame.current)))
      }}
      className={css({ w: 'full', aspectRatio: '16/9', borderRadius: 'card', borderWidth: 0 })}
    />
  )
}

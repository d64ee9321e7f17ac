// A lesson's content as the server sent it: the video (a stored file played here, or a YouTube/Vimeo embed),
// the article (HTML the server rendered from Markdown and sanitised) and the attachments. Used by the player and
// by the course page's preview dialog.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useHydrated, useRouter } from '@tanstack/react-router'
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react'
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
        <LessonVideo lesson={lesson} video={content.video} trackProgress={trackProgress} />
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

type FileVideo = Extract<NonNullable<OpenLesson['content']['video']>, { type: 'file' }>

/**
 * Plays the HLS renditions once they exist (decision 0064): through hls.js wherever Media Source Extensions exist,
 * loaded only now (its own chunk, never in the first page's JavaScript); natively only where there is no MSE (iPhone
 * Safari). Chromium's own HLS player fetches the renditions' single file from byte 0 rather than segment by segment,
 * so its first frame waited for far more than the first segment (4.7 s against hls.js's, `npm run bench:video`).
 * The uploaded file plays while the renditions are processing, and if hls.js cannot start.
 */
function useHls(video: RefObject<HTMLVideoElement | null>, file: FileVideo) {
  const { src, hls } = file
  useEffect(() => {
    const element = video.current
    if (!element || !hls) return
    if (typeof window.MediaSource === 'undefined' && element.canPlayType('application/vnd.apple.mpegurl')) {
      element.src = hls
      return
    }
    let stopped = false
    let player: { destroy(): void } | null = null
    const fallBack = () => {
      if (!stopped) element.src = src
    }
    import('hls.js')
      .then(({ default: Hls }) => {
        if (stopped) return
        if (!Hls.isSupported()) return fallBack()
        // No worker: the CSP allows no blob: scripts, and fMP4 segments need no transmuxing off the main thread. The
        // first segment is the smallest rendition's (the quickest first frame); bandwidth decides from the next.
        const instance = new Hls({ capLevelToPlayerSize: true, enableWorker: false, startLevel: 0 })
        instance.on(Hls.Events.ERROR, (_event, data) => {
          if (!data.fatal) return
          instance.destroy()
          player = null
          fallBack()
        })
        instance.loadSource(hls)
        instance.attachMedia(element)
        player = instance
      })
      .catch(fallBack)
    return () => {
      stopped = true
      player?.destroy()
    }
  }, [video, src, hls])
}

function LessonVideo({
  lesson,
  video: file,
  trackProgress,
}: {
  lesson: OpenLesson
  video: FileVideo
  trackProgress: boolean
}) {
  const video = useRef<HTMLVideoElement>(null)
  useVideoProgress(video, progressOf(lesson, trackProgress), useSaveProgress(lesson))
  useHls(video, file)
  return (
    // biome-ignore lint/a11y/useMediaCaption: the demo and uploaded lesson videos have no caption tracks yet
    <video
      ref={video}
      src={file.hls ? undefined : file.src}
      poster={file.poster ?? undefined}
      controls
      preload="metadata"
      data-testid="lesson-video"
      data-hls={file.hls ? 'true' : 'false'}
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
  // The server renderer knows the page's origin from the request (there is no window there); the browser its location.
  const origin = useRouter().options.origin ?? window.location.origin
  const apiSrc = useMemo(() => embedApiSrc(src, provider, origin), [src, provider, origin])
  useEffect(() => () => media?.destroy(), [media])
  const mediaRef = useMemo(() => ({ current: media as PlaybackMedia | null }), [media])
  useVideoProgress(mediaRef, progressOf(lesson, trackProgress), useSaveProgress(lesson))
  // The frame comes with the page's scripts, not in the server's HTML: a frame that loaded before hydration would have
  // fired its load event unheard, and the player would never be told to report playback (or where to resume).
  const hydrated = useHydrated()
  if (!hydrated) return <div data-testid="lesson-embed-pending" className={embedBox} />
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
      className={embedBox}
    />
  )
}

const embedBox = css({ w: 'full', aspectRatio: '16/9', borderRadius: 'card', borderWidth: 0, bg: 'black' })

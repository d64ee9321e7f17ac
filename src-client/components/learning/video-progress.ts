// Video progress as the player reports it (a stored file's <video>, or a YouTube/Vimeo embed through embed-media.ts): the stretches actually played (a seek starts a new one, so jumping
// ahead earns nothing) and the position, saved every 15 s while playing, on pause and when the learner leaves.
import { useEffect, useRef } from 'react'
import type { z } from 'zod'
import { procedureUrl } from '#client/lib/trpc.ts'
import type { videoProgressInput } from '#shared/schemas/learning.ts'

export const SAVE_EVERY_MS = 15_000
/** A jump of more than this between two timeupdate events is a seek, not playback. */
const SEEK_GAP_SECONDS = 1.5

/** One progress write: the input of learning.saveProgress, from its shared schema. */
export type ProgressWrite = z.input<typeof videoProgressInput>

const SAVE_PROGRESS_URL = procedureUrl('learning', 'saveProgress')

/** Sends a write that must survive the page closing (fetch keepalive; same origin, so the CSRF check passes). */
function sendOnLeave(input: ProgressWrite) {
  void fetch(SAVE_PROGRESS_URL, {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  }).catch(() => {})
}

/** What the hook needs of a player: a <video> element, or an embedded YouTube/Vimeo player (embed-media.ts). */
export interface PlaybackMedia {
  currentTime: number
  readonly duration: number
  readonly paused: boolean
  readonly readyState: number
  addEventListener(type: string, listener: () => void): void
  removeEventListener(type: string, listener: () => void): void
}

export function useVideoProgress(
  video: React.RefObject<PlaybackMedia | null>,
  lesson: { courseId: string; lessonId: string; resumeAt: number; enabled: boolean },
  save: (input: ProgressWrite) => void,
) {
  const pending = useRef<[number, number][]>([])
  const segment = useRef<[number, number] | null>(null)
  const saveRef = useRef(save)
  saveRef.current = save
  // Where to resume is read once per lesson: later refetches of the lesson must not seek a playing video.
  const resumeAt = useRef(lesson.resumeAt)
  const { courseId, lessonId, enabled } = lesson

  useEffect(() => {
    const element = video.current
    if (!element || !enabled) return
    const take = (): ProgressWrite => {
      const ranges = [...pending.current]
      if (segment.current && segment.current[1] > segment.current[0]) ranges.push([...segment.current])
      pending.current = []
      segment.current = segment.current ? [segment.current[1], segment.current[1]] : null
      return { courseId, lessonId, positionSeconds: element.currentTime, ranges, sentAt: Date.now() }
    }
    const flush = () => saveRef.current(take())
    const onTime = () => {
      const now = element.currentTime
      const current = segment.current
      if (current && now >= current[1] && now - current[1] <= SEEK_GAP_SECONDS) current[1] = now
      else {
        if (current && current[1] > current[0]) pending.current.push(current)
        segment.current = [now, now]
      }
    }
    const onLoaded = () => {
      const at = resumeAt.current
      if (at > 0 && at < element.duration - 1) element.currentTime = at
    }
    const onPause = () => flush()
    const onLeave = () => {
      if (document.visibilityState === 'hidden') sendOnLeave(take())
    }
    const timer = window.setInterval(() => {
      if (!element.paused) flush()
    }, SAVE_EVERY_MS)
    element.addEventListener('timeupdate', onTime)
    element.addEventListener('loadedmetadata', onLoaded)
    element.addEventListener('pause', onPause)
    element.addEventListener('ended', onPause)
    document.addEventListener('visibilitychange', onLeave)
    if (element.readyState >= 1) onLoaded()
    return () => {
      window.clearInterval(timer)
      element.removeEventListener('timeupdate', onTime)
      element.removeEventListener('loadedmetadata', onLoaded)
      element.removeEventListener('pause', onPause)
      element.removeEventListener('ended', onPause)
      document.removeEventListener('visibilitychange', onLeave)
      // Leaving the lesson inside the app (another lesson, another page).
      if (element.currentTime > 0) sendOnLeave(take())
    }
  }, [video, courseId, lessonId, enabled])
}

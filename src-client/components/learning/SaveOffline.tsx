// "Save for offline" under a lesson (issue 34): keeps the lesson (or every open lesson of the course) in this browser
// for the saved-lessons page (/saved), which plays them without a connection. The saving itself is public/offline/
// store.js, shared with that page (plain JavaScript, loaded on demand); the server says who may save and until when,
// and a learner it refuses (a buyer of a course whose lessons only Premium members keep) is told why, not offered a
// button that fails.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { notify } from '#client/components/ui/toaster.tsx'
import { countOf } from '#client/lib/format.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { css } from '#styled-system/css'

type Course = RouterOutputs['learning']['course']
type OpenLesson = Extract<RouterOutputs['learning']['lesson'], { locked: false }>

interface SavedLessonInput {
  courseId: string
  courseTitle: string
  position: number
  lesson: { id: string; title: string; html: string; videoSrc: string | null; resumeAt: number }
  pass: { allowed: boolean; validUntil: string | null; reason: string | null }
}
interface OfflineStore {
  lessonKey(courseId: string, lessonId: string): string
  getLesson(key: string): Promise<unknown>
  removeLesson(key: string): Promise<void>
  saveLesson(input: SavedLessonInput): Promise<number>
  passFor(courseId: string): Promise<SavedLessonInput['pass']>
  installOfflineWorker(): Promise<void>
  formatBytes(bytes: number): string
}

/** The shared store, from the site's public files (not bundled: the saved-lessons page loads the same file). */
function offlineStore(): Promise<OfflineStore> {
  const url = '/offline/store.js'
  return import(/* @vite-ignore */ url)
}

function savedInput(course: Course, lesson: OpenLesson, position: number, pass: SavedLessonInput['pass']) {
  return {
    courseId: course.course.id,
    courseTitle: course.course.title,
    position,
    pass,
    lesson: {
      id: lesson.id,
      title: lesson.title,
      html: lesson.content.html,
      videoSrc: lesson.content.video?.type === 'file' ? lesson.content.video.src : null,
      resumeAt: lesson.progress?.positionSeconds ?? 0,
    },
  }
}

const EMBED_NOTE = 'The embedded video plays from its own site and needs a connection: the text is saved.'

export default function SaveOffline({ course, lesson }: { course: Course; lesson: OpenLesson }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [saved, setSaved] = useState<boolean | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const lessons = course.sections.flatMap((section) => section.lessons)
  const position = lessons.findIndex((item) => item.id === lesson.id)
  const passes = useQuery(trpc.learning.offlinePasses.queryOptions({ courseIds: [course.course.id] }))

  useEffect(() => {
    if (!('indexedDB' in window) || !('caches' in window)) return
    let live = true
    void offlineStore()
      .then((store) => store.getLesson(store.lessonKey(course.course.id, lesson.id)))
      .then((found) => live && setSaved(Boolean(found)))
      .catch(() => live && setSaved(false))
    return () => {
      live = false
    }
  }, [course.course.id, lesson.id])

  if (saved === null || passes.isPending) return null
  // Unknown (the server did not answer): the buttons stay, and saving says what went wrong.
  const refusal = passes.data?.[0]?.allowed === false ? passes.data[0].reason : null
  if (refusal && !saved) {
    return (
      <section aria-label="Offline" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        <p>
          {refusal}{' '}
          <Link to="/pricing" className={css({ color: 'accent', textDecoration: 'underline' })}>
            See the plans
          </Link>
        </p>
      </section>
    )
  }
  // A YouTube or Vimeo video plays from its own site, which does not let it be stored: only the text is saved.
  const embedded = lesson.content.video?.type === 'embed'

  const run = async (label: string, work: (store: OfflineStore) => Promise<string>) => {
    setBusy(label)
    try {
      const store = await offlineStore()
      notify('success', await work(store))
    } catch (error) {
      notify('error', 'Not saved', error instanceof Error ? error.message : 'Saving for offline failed.')
    } finally {
      setBusy(null)
    }
  }

  const saveThis = () =>
    run('Saving…', async (store) => {
      const pass = await store.passFor(course.course.id)
      await store.installOfflineWorker()
      const bytes = await store.saveLesson(savedInput(course, lesson, position, pass))
      setSaved(true)
      return `Saved for offline (${store.formatBytes(bytes)}).${embedded ? ` ${EMBED_NOTE}` : ''}`
    })

  const saveCourse = () =>
    run('Saving the course…', async (store) => {
      const pass = await store.passFor(course.course.id)
      await store.installOfflineWorker()
      let count = 0
      for (const [index, item] of lessons.entries()) {
        if (item.locked || item.kind === 'quiz') continue
        const full = await queryClient.fetchQuery(
          trpc.learning.lesson.queryOptions({ courseId: course.course.id, lessonId: item.id }),
        )
        if (full.locked) continue
        await store.saveLesson(savedInput(course, full, index, pass))
        count += 1
      }
      setSaved(true)
      return `Saved ${countOf(count, 'lesson')} for offline.`
    })

  const remove = () =>
    run('Removing…', async (store) => {
      await store.removeLesson(store.lessonKey(course.course.id, lesson.id))
      setSaved(false)
      return 'Removed from this device.'
    })

  return (
    <section
      aria-label="Offline"
      className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'center', fontSize: 'sm' })}
    >
      {saved ? (
        <>
          <span role="status">Saved on this device.</span>
          <button
            type="button"
            className={button({ variant: 'outline' })}
            {...whilePending(busy !== null, 'onClick', remove)}
          >
            Remove from this device
          </button>
        </>
      ) : (
        <button
          type="button"
          className={button({ variant: 'outline' })}
          {...whilePending(busy !== null, 'onClick', saveThis)}
        >
          {busy ?? 'Save for offline'}
        </button>
      )}
      <button
        type="button"
        className={button({ variant: 'ghost' })}
        {...whilePending(busy !== null, 'onClick', saveCourse)}
      >
        Save the whole course
      </button>
      {embedded ? <p className={css({ w: 'full', color: 'fg.muted' })}>{EMBED_NOTE}</p> : null}
      <a href="/saved" className={css({ color: 'accent', textDecoration: 'underline' })}>
        Saved lessons
      </a>
    </section>
  )
}

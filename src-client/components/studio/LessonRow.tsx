// One lesson in the builder: drag handle, title, kind, preview switch, pending-review note, and its buttons.
import { Link } from '@tanstack/react-router'
import type { ChangeEvent, ReactNode } from 'react'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { formatLessonDuration } from '#shared/lesson-duration.ts'
import { css, cx } from '#styled-system/css'
import type { Lesson } from './CurriculumBuilder.tsx'

const KIND_LABELS = { text: 'Text', embed: 'YouTube/Vimeo', upload: 'Video', quiz: 'Quiz' } as const

const row = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '2',
  alignItems: 'center',
  p: '2',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'control',
  bg: 'canvas',
})

export function LessonRow({
  courseId,
  lesson,
  dragging,
  canDragOver,
  move,
  previewPending,
  onDragStart,
  onDragEnd,
  onDrop,
  onPreview,
  onEdit,
  onDelete,
}: {
  courseId: string
  lesson: Lesson
  dragging: boolean
  canDragOver: boolean
  move: ReactNode
  previewPending: boolean
  onDragStart: () => void
  onDragEnd: () => void
  onDrop: () => void
  onPreview: (isPreview: boolean) => void
  onEdit: () => void
  onDelete: () => void
}) {
  return (
    <li
      className={cx(row, dragging ? css({ opacity: 0.5 }) : undefined)}
      data-lesson-id={lesson.id}
      draggable
      onDragStart={(event) => {
        event.dataTransfer.effectAllowed = 'move'
        event.dataTransfer.setData('text/plain', lesson.id)
        onDragStart()
      }}
      onDragEnd={onDragEnd}
      onDragOver={(event) => {
        if (canDragOver) event.preventDefault()
      }}
      onDrop={(event) => {
        event.preventDefault()
        event.stopPropagation()
        onDrop()
      }}
    >
      <span aria-hidden className={css({ cursor: 'grab', color: 'fg.muted', px: '1', userSelect: 'none' })}>
        ⠿
      </span>
      <span className={css({ flex: '1 1 10rem', minW: 0, overflowWrap: 'anywhere', fontWeight: 'medium' })}>
        {lesson.title}
      </span>
      <span className={css({ display: 'inline-flex', gap: '1', flexWrap: 'wrap', fontSize: 'xs' })}>
        <span className={badge({ tone: 'blue' })}>{KIND_LABELS[lesson.type]}</span>
        <span className={badge()}>{formatLessonDuration(lesson.durationSeconds)}</span>
        {lesson.pendingReview ? <span className={badge({ tone: 'yellow' })}>Pending review</span> : null}
      </span>
      <label className={css({ display: 'inline-flex', gap: '1', alignItems: 'center', fontSize: 'sm', minH: '8' })}>
        <input
          type="checkbox"
          checked={lesson.isPreview}
          {...whilePending(previewPending, 'onChange', (event: ChangeEvent<HTMLInputElement>) =>
            onPreview(event.target.checked),
          )}
          className={css({ w: '4', h: '4', accentColor: 'accent' })}
          aria-label={`Free preview: ${lesson.title}`}
        />
        <span aria-hidden>Free preview</span>
      </label>
      <span className={css({ display: 'inline-flex', gap: '1', flexWrap: 'wrap' })}>
        {move}
        {lesson.type === 'quiz' ? (
          <Link
            to="/studio/courses/$courseId/quizzes/$lessonId"
            params={{ courseId, lessonId: lesson.id }}
            className={button({ variant: 'outline', size: 'sm' })}
            aria-label={`Questions: ${lesson.title}`}
          >
            Questions
          </Link>
        ) : null}
        <button
          type="button"
          className={button({ variant: 'outline', size: 'sm' })}
          aria-label={`Edit: ${lesson.title}`}
          onClick={onEdit}
        >
          Edit
        </button>
        <button
          type="button"
          className={button({ variant: 'ghost', size: 'sm' })}
          aria-label={`Delete: ${lesson.title}`}
          onClick={onDelete}
        >
          Delete
        </button>
      </span>
    </li>
  )
}

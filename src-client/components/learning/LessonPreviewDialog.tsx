// A preview lesson opened from the course page's curriculum: the lesson itself (video or article) in a dialog,
// for anyone. Loaded on first use, so the course page's initial JavaScript stays as it was.
import { useQuery } from '@tanstack/react-query'
import { useSession } from '#client/lib/session.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'
import { Dialog, PreviewDialogFrame } from '../ui/PreviewDialogFrame.tsx'
import { ErrorState, LoadingState } from '../ui/states.tsx'
import { LessonContent } from './LessonContent.tsx'

export default function LessonPreviewDialog({
  courseId,
  lessonId,
  title,
  onClose,
  returnFocusTo,
}: {
  courseId: string
  lessonId: string
  title: string
  onClose: () => void
  returnFocusTo: () => HTMLElement | null
}) {
  const trpc = useTRPC()
  const { user } = useSession()
  const lesson = useQuery(trpc.learning.lesson.queryOptions({ courseId, lessonId }))
  return (
    <PreviewDialogFrame onClose={onClose} returnFocusTo={returnFocusTo} className={css({ maxW: '3xl', p: '6' })}>
      <Dialog.Title className={css({ fontSize: 'xl', fontWeight: 'bold', mb: '4', pr: '8' })}>
        Preview: {title}
      </Dialog.Title>
      {lesson.isPending ? <LoadingState label="Loading lesson…" /> : null}
      {lesson.isError ? (
        <ErrorState title="Failed to load the lesson" error={lesson.error} onRetry={() => void lesson.refetch()} />
      ) : null}
      {lesson.data && !lesson.data.locked ? <LessonContent lesson={lesson.data} trackProgress={Boolean(user)} /> : null}
      {lesson.data?.locked ? <p>This lesson is not a preview.</p> : null}
    </PreviewDialogFrame>
  )
}

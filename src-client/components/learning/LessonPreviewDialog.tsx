// A preview lesson opened from the course page's curriculum: the lesson itself (video or article) in a dialog,
// for anyone. Loaded on first use, so the course page's initial JavaScript stays as it was.
import { Dialog } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import { useQuery } from '@tanstack/react-query'
import { css } from '../../../styled-system/css'
import { useSession } from '../../lib/session.ts'
import { useTRPC } from '../../lib/use-trpc.ts'
import { Icon } from '../ui/icons.tsx'
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
    <Dialog.Root defaultOpen onOpenChange={(details) => !details.open && onClose()} finalFocusEl={returnFocusTo}>
      <Portal>
        <Dialog.Backdrop className={css({ position: 'fixed', inset: 0, bg: 'rgba(15,23,42,.6)', zIndex: 40 })} />
        <Dialog.Positioner
          className={css({ position: 'fixed', inset: 0, display: 'grid', placeItems: 'center', p: '4', zIndex: 50 })}
        >
          <Dialog.Content
            className={css({
              bg: 'surface',
              borderRadius: 'card',
              boxShadow: 'raised',
              maxW: '3xl',
              w: 'full',
              maxH: '90vh',
              overflowY: 'auto',
              position: 'relative',
              p: '6',
            })}
          >
            <Dialog.Title className={css({ fontSize: 'xl', fontWeight: 'bold', mb: '4', pr: '8' })}>
              Preview: {title}
            </Dialog.Title>
            {lesson.isPending ? <LoadingState label="Loading lesson…" /> : null}
            {lesson.isError ? (
              <ErrorState
                title="Failed to load the lesson"
                error={lesson.error}
                onRetry={() => void lesson.refetch()}
              />
            ) : null}
            {lesson.data && !lesson.data.locked ? (
              <LessonContent lesson={lesson.data} trackProgress={Boolean(user)} />
            ) : null}
            {lesson.data?.locked ? <p>This lesson is not a preview.</p> : null}
            <Dialog.CloseTrigger
              aria-label="Close preview"
              className={css({
                position: 'absolute',
                top: '3',
                right: '3',
                borderRadius: 'full',
                p: '1',
                cursor: 'pointer',
              })}
            >
              <Icon name="close" size={18} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

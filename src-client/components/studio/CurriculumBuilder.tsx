// The curriculum builder: sections and lessons added, renamed, deleted (after a confirmation), marked as preview,
// and reordered by dragging a lesson (native drag and drop) or by keyboard: Move up / Move down keep focus on the
// moved item's button and a live region says where it went. A new order shows at once and is sent whole
// (studio.arrange); a refusal puts the server's order back.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { button } from '#client/components/ui/button.ts'
import { borderedCard } from '#client/components/ui/card.ts'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { STUDIO_LIMITS } from '#shared/studio.ts'
import { css, cx } from '#styled-system/css'
import { canMoveLesson, dropLesson, findLesson, moveLesson, moveSection, toArrangement } from './arrangement.ts'
import { AddForm, RenameForm } from './CurriculumForms.tsx'
import { LessonRow } from './LessonRow.tsx'
import { SectionDrip } from './SectionDrip.tsx'

const LessonEditor = lazy(() => import('./LessonEditor.tsx'))

type Course = RouterOutputs['studio']['course']
export type Section = Course['curriculum'][number]
export type Lesson = Section['lessons'][number]
type Focus = { id: string; control: 'up' | 'down' }

const sectionBox = cx(
  borderedCard,
  css({
    p: { base: '3', md: '4' },
    display: 'flex',
    flexDir: 'column',
    gap: '3',
  }),
)
const toolRow = css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center' })
const srOnly = css({ srOnly: true })

export const moveButtonId = (id: string, control: 'up' | 'down') => `move-${control}-${id}`

export function CurriculumBuilder({ course }: { course: Course }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const courseId = course.id
  const courseKey = trpc.studio.course.queryKey({ courseId })
  const sections = course.curriculum
  const lessonCount = sections.reduce((sum, section) => sum + section.lessons.length, 0)
  const [announcement, setAnnouncement] = useState('')
  const [editing, setEditing] = useState<string | null>(null)
  const [renaming, setRenaming] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<{ kind: 'section' | 'lesson'; id: string; title: string } | null>(null)
  const [dragging, setDragging] = useState<string | null>(null)
  const focusAfter = useRef<Focus | null>(null)
  const latestArrange = useRef(0)

  const setCurriculum = (curriculum: Section[]) =>
    queryClient.setQueryData(courseKey, (old) => (old ? { ...old, curriculum } : old))
  const saved = (message?: string) => (result: { curriculum: Section[] }) => {
    setCurriculum(result.curriculum)
    void queryClient.invalidateQueries({ queryKey: trpc.studio.myCourses.pathKey() })
    if (message) notify('success', message)
  }
  const failed = (error: unknown) => notifyError(error)

  const arrange = useMutation(trpc.studio.arrange.mutationOptions())
  const addSection = useMutation(trpc.studio.addSection.mutationOptions({ onError: failed }))
  const renameSection = useMutation(trpc.studio.renameSection.mutationOptions({ onError: failed }))
  const addLesson = useMutation(trpc.studio.addLesson.mutationOptions({ onError: failed }))
  // Preview switches are flipped quickly, on several lessons: each answer is the whole curriculum as its own write
  // left it, so an earlier answer arriving last would draw a later switch back off. Only the last one sent is drawn;
  // an earlier one arriving after it asks the server again.
  const latestPreview = useRef(0)
  const setPreview = useMutation(
    trpc.studio.setPreview.mutationOptions({
      onMutate: () => ++latestPreview.current,
      onSuccess: (result, _variables, sent) => {
        if (sent !== latestPreview.current) return void queryClient.invalidateQueries({ queryKey: courseKey })
        void queryClient.cancelQueries({ queryKey: courseKey })
        saved()(result)
      },
      onError: failed,
    }),
  )
  const deleteSection = useMutation(trpc.studio.deleteSection.mutationOptions({ onError: failed }))
  const deleteLesson = useMutation(trpc.studio.deleteLesson.mutationOptions({ onError: failed }))

  // Focus follows the moved item: its own Move button, in its new place (React re-inserted or re-mounted it).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each new order is drawn
  useEffect(() => {
    const focus = focusAfter.current
    if (!focus) return
    focusAfter.current = null
    document.getElementById(moveButtonId(focus.id, focus.control))?.focus()
  }, [sections])

  /** Shows the new order at once, says it, sends it; the answer (or a refusal's reload) is the truth after. */
  function applyOrder(next: Section[], message: string, focus: Focus | null) {
    focusAfter.current = focus
    setCurriculum(next)
    setAnnouncement(message)
    const call = ++latestArrange.current
    arrange.mutate(
      { courseId, sections: toArrangement(next) },
      {
        onSuccess: (result) => {
          if (call === latestArrange.current) setCurriculum(result.curriculum)
        },
        onError: (error) => {
          notifyError(error, 'Could not save the new order')
          void queryClient.invalidateQueries({ queryKey: courseKey })
        },
      },
    )
  }

  const placeOf = (next: Section[], lessonId: string) => {
    const at = findLesson(next, lessonId)
    if (!at) return ''
    const section = next[at.sectionIndex]!
    return `position ${at.lessonIndex + 1} of ${section.lessons.length} in “${section.title}”`
  }

  function moveLessonBy(lesson: Lesson, direction: -1 | 1) {
    if (!canMoveLesson(sections, lesson.id, direction)) return
    const next = moveLesson(sections, lesson.id, direction)
    applyOrder(next, `“${lesson.title}” moved to ${placeOf(next, lesson.id)}.`, {
      id: lesson.id,
      control: direction === -1 ? 'up' : 'down',
    })
  }

  function moveSectionBy(section: Section, direction: -1 | 1) {
    const index = sections.indexOf(section)
    if (index + direction < 0 || index + direction >= sections.length) return
    const next = moveSection(sections, section.id, direction)
    applyOrder(next, `Section “${section.title}” moved to position ${index + direction + 1} of ${sections.length}.`, {
      id: section.id,
      control: direction === -1 ? 'up' : 'down',
    })
  }

  function drop(targetSection: Section, targetLesson: Lesson | null) {
    const lessonId = dragging
    setDragging(null)
    if (!lessonId || lessonId === targetLesson?.id) return
    const from = findLesson(sections, lessonId)
    let before: string | null = targetLesson?.id ?? null
    // Dragged down within its section onto a later lesson: it goes after that lesson.
    if (targetLesson && from && sections[from.sectionIndex]?.id === targetSection.id) {
      const targetIndex = targetSection.lessons.findIndex((lesson) => lesson.id === targetLesson.id)
      if (from.lessonIndex < targetIndex) before = targetSection.lessons[targetIndex + 1]?.id ?? null
    }
    const next = dropLesson(sections, lessonId, targetSection.id, before)
    const title = sections.flatMap((section) => section.lessons).find((lesson) => lesson.id === lessonId)?.title
    applyOrder(next, `“${title ?? 'Lesson'}” moved to ${placeOf(next, lessonId)}.`, null)
  }

  function confirmDelete() {
    if (!deleting) return
    const done = (result: { curriculum: Section[] }) => {
      saved(deleting.kind === 'section' ? 'Section deleted' : 'Lesson deleted')(result)
      setDeleting(null)
    }
    if (deleting.kind === 'section') deleteSection.mutate({ courseId, sectionId: deleting.id }, { onSuccess: done })
    else deleteLesson.mutate({ courseId, lessonId: deleting.id }, { onSuccess: done })
  }

  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
      <p aria-live="polite" className={srOnly}>
        {announcement}
      </p>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        {sections.length} of {STUDIO_LIMITS.sections} sections · {lessonCount} of {STUDIO_LIMITS.lessons} lessons. Drag
        a lesson to move it, or use its Move up and Move down buttons.
        {course.onSale ? ' New lessons are reviewed before learners see them.' : ''}
      </p>
      {sections.length === 0 ? (
        <p className={css({ p: '6', textAlign: 'center', bg: 'surface', borderRadius: 'card', borderWidth: '1px' })}>
          No sections yet: add the first section below, then its lessons.
        </p>
      ) : null}
      <ol aria-label="Sections" className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
        {sections.map((section, sectionIndex) => (
          <li
            key={section.id}
            className={sectionBox}
            aria-label={`Section ${sectionIndex + 1}: ${section.title}`}
            onDragOver={(event) => {
              if (dragging) event.preventDefault()
            }}
            onDrop={(event) => {
              event.preventDefault()
              drop(section, null)
            }}
          >
            {renaming === section.id ? (
              <RenameForm
                label="Section title"
                value={section.title}
                pending={renameSection.isPending}
                onCancel={() => setRenaming(null)}
                onSave={(title) =>
                  renameSection.mutate(
                    { courseId, sectionId: section.id, title },
                    {
                      onSuccess: (result) => {
                        saved('Section renamed')(result)
                        setRenaming(null)
                      },
                    },
                  )
                }
              />
            ) : (
              <div className={toolRow}>
                <h2 className={css({ fontWeight: 'bold', flex: '1 1 12rem', minW: 0, overflowWrap: 'anywhere' })}>
                  <span className={css({ color: 'fg.muted', fontWeight: 'normal' })}>Section {sectionIndex + 1}: </span>
                  {section.title}
                </h2>
                <MoveButtons
                  id={section.id}
                  title={section.title}
                  canUp={sectionIndex > 0}
                  canDown={sectionIndex < sections.length - 1}
                  onMove={(direction) => moveSectionBy(section, direction)}
                />
                <button
                  type="button"
                  className={button({ variant: 'outline', size: 'sm' })}
                  aria-label={`Rename section: ${section.title}`}
                  onClick={() => setRenaming(section.id)}
                >
                  Rename
                </button>
                <button
                  type="button"
                  className={button({ variant: 'ghost', size: 'sm' })}
                  aria-label={`Delete section: ${section.title}`}
                  onClick={() => setDeleting({ kind: 'section', id: section.id, title: section.title })}
                >
                  Delete
                </button>
              </div>
            )}
            <SectionDrip courseId={courseId} sectionId={section.id} title={section.title} />
            {section.lessons.length === 0 ? (
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No lessons in this section yet.</p>
            ) : (
              <ol
                aria-label={`Lessons of ${section.title}`}
                className={css({ display: 'flex', flexDir: 'column', gap: '2' })}
              >
                {section.lessons.map((lesson) => (
                  <LessonRow
                    key={lesson.id}
                    courseId={courseId}
                    lesson={lesson}
                    dragging={dragging === lesson.id}
                    onDragStart={() => setDragging(lesson.id)}
                    onDragEnd={() => setDragging(null)}
                    onDrop={() => drop(section, lesson)}
                    canDragOver={dragging !== null}
                    move={
                      <MoveButtons
                        id={lesson.id}
                        title={lesson.title}
                        canUp={canMoveLesson(sections, lesson.id, -1)}
                        canDown={canMoveLesson(sections, lesson.id, 1)}
                        onMove={(direction) => moveLessonBy(lesson, direction)}
                      />
                    }
                    previewPending={setPreview.isPending && setPreview.variables?.lessonId === lesson.id}
                    onPreview={(isPreview) => setPreview.mutate({ courseId, lessonId: lesson.id, isPreview })}
                    onEdit={() => setEditing(lesson.id)}
                    onDelete={() => setDeleting({ kind: 'lesson', id: lesson.id, title: lesson.title })}
                  />
                ))}
              </ol>
            )}
            <AddForm
              label={`New lesson in ${section.title}`}
              action="Add lesson"
              pending={addLesson.isPending && addLesson.variables?.sectionId === section.id}
              disabled={lessonCount >= STUDIO_LIMITS.lessons}
              onAdd={(title, reset) =>
                addLesson.mutate(
                  { courseId, sectionId: section.id, title },
                  {
                    onSuccess: (result) => {
                      saved('Lesson added')(result)
                      reset()
                    },
                  },
                )
              }
            />
          </li>
        ))}
      </ol>
      <AddForm
        label="New section title"
        action="Add section"
        pending={addSection.isPending}
        disabled={sections.length >= STUDIO_LIMITS.sections}
        onAdd={(title, reset) =>
          addSection.mutate(
            { courseId, title },
            {
              onSuccess: (result) => {
                saved('Section added')(result)
                reset()
              },
            },
          )
        }
      />
      {editing ? (
        <Suspense fallback={null}>
          <LessonEditor courseId={courseId} lessonId={editing} onClose={() => setEditing(null)} />
        </Suspense>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={deleting?.kind === 'section' ? 'Delete this section?' : 'Delete this lesson?'}
        description={
          deleting?.kind === 'section'
            ? `“${deleting.title}” and every lesson in it will be deleted, with their videos. This cannot be undone.`
            : `“${deleting?.title ?? ''}” will be deleted, with its video. This cannot be undone.`
        }
        confirmLabel="Delete"
        pending={deleteSection.isPending || deleteLesson.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </div>
  )
}

/**
 * Move up / Move down. At either end a button stays focusable (aria-disabled), so focus is never dropped when the
 * moved item reaches the top or the bottom.
 */
function MoveButtons({
  id,
  title,
  canUp,
  canDown,
  onMove,
}: {
  id: string
  title: string
  canUp: boolean
  canDown: boolean
  onMove: (direction: -1 | 1) => void
}) {
  const small = button({ variant: 'outline', size: 'sm' })
  return (
    <span className={css({ display: 'inline-flex', gap: '1' })}>
      <button
        type="button"
        id={moveButtonId(id, 'up')}
        className={small}
        aria-label={`Move up: ${title}`}
        aria-disabled={!canUp || undefined}
        onClick={() => canUp && onMove(-1)}
      >
        Move up
      </button>
      <button
        type="button"
        id={moveButtonId(id, 'down')}
        className={small}
        aria-label={`Move down: ${title}`}
        aria-disabled={!canDown || undefined}
        onClick={() => canDown && onMove(1)}
      >
        Move down
      </button>
    </span>
  )
}

// The player's page: sidebar curriculum (check = completed, lock = not available), the lesson, Previous/Next,
// Mark as complete (→ Completed, undoable), "N of M lessons complete" with a bar, and the completion notice.

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { countOf } from '#client/lib/format.ts'
import { useSession } from '#client/lib/session.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'
import { CourseLiveNotice } from '../live/UpcomingLive.tsx'
import { button } from '../ui/button.ts'
import { contentCard, raisedCard } from '../ui/card.ts'
import { Icon } from '../ui/icons.tsx'
import { Container } from '../ui/layout.tsx'
import { LoadingState } from '../ui/states.tsx'
import { notify, notifyError } from '../ui/toaster.tsx'
import { DrippedLesson, LessonLock, SectionOpensOn } from './DripDate.tsx'
import { LessonContent } from './LessonContent.tsx'
import { ProgressBar } from './ProgressBar.tsx'

const QuizPanel = lazy(() => import('../quiz/QuizPanel.tsx'))
const LessonQuestions = lazy(() => import('./LessonQuestions.tsx'))
const SaveOffline = lazy(() => import('./SaveOffline.tsx'))

type Course = RouterOutputs['learning']['course']
type Lesson = RouterOutputs['learning']['lesson']

export function Player({ course, lesson }: { course: Course; lesson: Lesson }) {
  const { user } = useSession()
  const lessons = course.sections.flatMap((section) => section.lessons)
  const index = lessons.findIndex((item) => item.id === lesson.id)
  const previous = index > 0 ? lessons[index - 1] : undefined
  const next = index >= 0 ? lessons[index + 1] : undefined
  const current = lessons[index]
  return (
    <main className={css({ bg: 'canvas', minH: '70vh' })}>
      <Container
        className={css({
          py: '6',
          display: 'grid',
          gap: '6',
          gridTemplateColumns: { base: '1fr', lg: '20rem 1fr' },
          alignItems: 'start',
        })}
      >
        {/* The lesson comes first in the page, as a phone shows it (above the outline), so Tab and a screen reader
            reach it first too; from lg the outline is placed in the left column. */}
        <article className={css({ order: { lg: 2 }, display: 'grid', gap: '5', minW: 0 })}>
          <header>
            <Link
              to="/courses/$courseId"
              params={{ courseId: course.course.id }}
              className={css({ color: 'accent', fontSize: 'sm', fontWeight: 'semibold' })}
            >
              {course.course.title}
            </Link>
            <h1 className={css({ fontSize: { base: 'xl', md: '2xl' }, fontWeight: 'bold', mt: '1' })}>
              {lesson.title}
            </h1>
            <CourseLiveNotice courseId={course.course.id} className={css({ mt: '1' })} />
          </header>
          {course.editorPreview ? (
            <p role="note" className={css({ bg: 'brand.50', p: '3', borderRadius: 'control', fontSize: 'sm' })}>
              Preview: you see this course as a learner will. Your progress here is not saved.
            </p>
          ) : null}
          <CompletionNotice course={course} />
          {lesson.locked && lesson.unlocksAt ? (
            <DrippedLesson unlocksAt={lesson.unlocksAt} />
          ) : lesson.locked ? (
            <LockedLesson courseId={course.course.id} signedIn={Boolean(user)} />
          ) : (
            <div className={contentCard}>
              <LessonContent key={lesson.id} lesson={lesson} trackProgress={Boolean(user) && !course.editorPreview} />
              {lesson.kind === 'quiz' ? (
                <QuizSlot courseId={course.course.id} lessonId={lesson.id} signedIn={Boolean(user)} />
              ) : null}
            </div>
          )}
          {user && course.hasAccess && !lesson.locked && !course.editorPreview && lesson.kind !== 'quiz' ? (
            <Suspense fallback={null}>
              <SaveOffline course={course} lesson={lesson} />
            </Suspense>
          ) : null}
          {user && course.hasAccess && !lesson.locked ? (
            <Suspense fallback={null}>
              <LessonQuestions courseId={course.course.id} lessonId={lesson.id} />
            </Suspense>
          ) : null}
          <nav
            aria-label="Lesson navigation"
            className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'center' })}
          >
            {previous ? (
              <Link
                to="/learn/$courseId/$lessonId"
                params={{ courseId: course.course.id, lessonId: previous.id }}
                className={button({ variant: 'outline' })}
              >
                Previous lesson
              </Link>
            ) : null}
            {user && !lesson.locked && current && !course.editorPreview && lesson.kind !== 'quiz' ? (
              <CompleteButton courseId={course.course.id} lessonId={lesson.id} completed={current.completed} />
            ) : null}
            {next ? (
              <Link
                to="/learn/$courseId/$lessonId"
                params={{ courseId: course.course.id, lessonId: next.id }}
                className={cx(button({ variant: 'outline' }), css({ ml: 'auto' }))}
              >
                Next lesson
              </Link>
            ) : null}
          </nav>
        </article>
        <aside className={css({ order: { lg: 1 } })}>
          <CourseProgress course={course} />
          <Curriculum course={course} currentId={lesson.id} />
        </aside>
      </Container>
    </main>
  )
}

/** A quiz lesson's quiz (issue 33), loaded with the first quiz opened. */
function QuizSlot({ courseId, lessonId, signedIn }: { courseId: string; lessonId: string; signedIn: boolean }) {
  if (!signedIn) return <p className={css({ mt: '4', color: 'fg.muted' })}>Sign in and enrol to take this quiz.</p>
  return (
    <div className={css({ mt: '6' })}>
      <Suspense fallback={<LoadingState label="Loading the quiz…" />}>
        <QuizPanel key={lessonId} courseId={courseId} lessonId={lessonId} />
      </Suspense>
    </div>
  )
}

function CourseProgress({ course }: { course: Course }) {
  const { completed, total, percent } = course.progress
  return (
    <div className={cx(raisedCard, css({ p: '4', mb: '4' }))}>
      <p className={css({ fontWeight: 'semibold', fontSize: 'sm' })} data-testid="course-progress">
        {completed} of {total} lessons complete
      </p>
      <ProgressBar percent={percent} label="Course progress" />
    </div>
  )
}

function CompletionNotice({ course }: { course: Course }) {
  const completion = course.completion
  if (!completion) return null
  const added = completion.lessonsAddedSince
  return (
    <div
      role="status"
      className={css({ bg: 'brand.50', borderRadius: 'card', p: '4', display: 'grid', gap: '1', fontSize: 'sm' })}
    >
      <p className={css({ fontWeight: 'semibold' })}>
        You completed this course on {formatDate(completion.completedAt)}.
      </p>
      {completion.certificateId ? (
        <Link
          to="/certificates/$certificateId"
          params={{ certificateId: completion.certificateId }}
          className={css({ color: 'accent', textDecoration: 'underline' })}
        >
          View your certificate
        </Link>
      ) : null}
      {added > 0 ? <p>{countOf(added, 'lesson')} added since you completed</p> : null}
    </div>
  )
}

function LockedLesson({ courseId, signedIn }: { courseId: string; signedIn: boolean }) {
  return (
    <LessonLock
      testId="locked-lesson"
      title="This lesson is locked"
      note={`Enrol in the course${signedIn ? '' : ' (or sign in)'} to open every lesson.`}
    >
      <Link to="/courses/$courseId" params={{ courseId }} className={cx(button(), css({ mt: '4' }))}>
        View course
      </Link>
    </LessonLock>
  )
}

function CompleteButton({ courseId, lessonId, completed }: { courseId: string; lessonId: string; completed: boolean }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const mutation = useMutation(
    trpc.learning.setCompleted.mutationOptions({
      onSuccess: async (result) => {
        await queryClient.invalidateQueries({ queryKey: trpc.learning.course.queryKey({ courseId }) })
        void queryClient.invalidateQueries({ queryKey: trpc.learning.myCourses.queryKey() })
        if (result.courseCompleted) notify('success', 'Course completed!', 'Congratulations on finishing the course.')
      },
      onError: (error) => notifyError(error, 'Could not save your progress'),
    }),
  )
  return (
    <button
      type="button"
      aria-pressed={completed}
      // Not `disabled` while saving: a disabled button would drop the keyboard focus.
      aria-busy={mutation.isPending}
      className={button({ variant: completed ? 'outline' : 'primary' })}
      onClick={() => {
        if (!mutation.isPending) mutation.mutate({ courseId, lessonId, completed: !completed })
      }}
    >
      {completed ? (
        <>
          <Icon name="check" size={16} /> Completed
        </>
      ) : (
        'Mark as complete'
      )}
    </button>
  )
}

function Curriculum({ course, currentId }: { course: Course; currentId: string }) {
  return (
    <nav aria-label="Course curriculum" className={raisedCard}>
      {course.sections.map((section) => (
        <section
          key={section.id}
          className={css({ borderBottomWidth: '1px', borderColor: 'line', _last: { borderBottomWidth: 0 } })}
        >
          <h2 className={css({ fontSize: 'sm', fontWeight: 'semibold', px: '4', pt: '3', pb: '1' })}>
            {section.title}
          </h2>
          <SectionOpensOn unlocksAt={section.unlocksAt} />
          <ol className={css({ pb: '2' })}>
            {section.lessons.map((lesson) => {
              const current = lesson.id === currentId
              return (
                <li key={lesson.id}>
                  <Link
                    to="/learn/$courseId/$lessonId"
                    params={{ courseId: course.course.id, lessonId: lesson.id }}
                    aria-current={current ? 'page' : undefined}
                    className={css({
                      display: 'flex',
                      gap: '2',
                      alignItems: 'center',
                      px: '4',
                      py: '2',
                      fontSize: 'sm',
                      bg: current ? 'brand.50' : 'transparent',
                      fontWeight: current ? 'semibold' : 'normal',
                      _hover: { bg: 'brand.50' },
                      _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
                    })}
                  >
                    <LessonStatus locked={lesson.locked} completed={lesson.completed} />
                    <span className={css({ flex: 1 })}>{lesson.title}</span>
                    <span className={css({ color: 'fg.muted', fontVariantNumeric: 'tabular-nums' })}>
                      {Math.floor(lesson.durationSeconds / 60)}:{String(lesson.durationSeconds % 60).padStart(2, '0')}
                    </span>
                  </Link>
                </li>
              )
            })}
          </ol>
        </section>
      ))}
    </nav>
  )
}

function LessonStatus({ locked, completed }: { locked: boolean; completed: boolean }) {
  if (completed)
    return <Icon name="check" size={16} label="Completed" className={css({ color: 'success', flexShrink: 0 })} />
  if (locked) return <Icon name="lock" size={16} label="Locked" className={css({ color: 'fg.muted', flexShrink: 0 })} />
  return (
    <span
      aria-hidden="true"
      className={css({ w: '4', h: '4', borderRadius: 'full', borderWidth: '2px', borderColor: 'line', flexShrink: 0 })}
    />
  )
}

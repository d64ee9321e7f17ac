import { Accordion } from '@ark-ui/react/accordion'
import { lazy, Suspense, useRef, useState } from 'react'
import type { RouterOutputs } from '#client/lib/types.ts'
import { css } from '#styled-system/css'
import { Icon } from '../ui/icons.tsx'

type Section = NonNullable<RouterOutputs['catalog']['course']>['curriculum'][number]
type Lesson = Section['lessons'][number]

const LessonPreviewDialog = lazy(() => import('../learning/LessonPreviewDialog.tsx'))

/** Seconds as the spec's 'm:ss'. */
export function formatLessonDuration(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

/** 'Course content': collapsible sections; preview lessons have a Preview button, the rest show a lock. */
export function CurriculumAccordion({ courseId, sections }: { courseId: string; sections: Section[] }) {
  const [previewing, setPreviewing] = useState<Lesson | null>(null)
  const opener = useRef<HTMLButtonElement | null>(null)
  const totalLessons = sections.reduce((sum, section) => sum + section.lessons.length, 0)
  return (
    <div>
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mb: '3' })} data-testid="total-lessons">
        {sections.length} sections • {totalLessons} lessons
      </p>
      <Accordion.Root
        multiple
        defaultValue={sections.length ? ['section-0'] : []}
        className={css({ borderWidth: '1px', borderColor: 'line', borderRadius: 'control', bg: 'surface' })}
      >
        {sections.map((section, index) => (
          <Accordion.Item
            key={section.title}
            // Ark derives element ids from the value: no spaces (aria-controls takes a list of ids).
            value={`section-${index}`}
            className={css({ borderBottomWidth: '1px', borderColor: 'line', _last: { borderBottomWidth: 0 } })}
          >
            <h3>
              <Accordion.ItemTrigger
                className={css({
                  w: 'full',
                  display: 'flex',
                  gap: '3',
                  alignItems: 'center',
                  p: '4',
                  textAlign: 'left',
                  fontWeight: 'semibold',
                  cursor: 'pointer',
                  bg: 'canvas',
                })}
              >
                <Accordion.ItemIndicator
                  className={css({ transition: 'transform .2s', _open: { transform: 'rotate(180deg)' } })}
                >
                  <Icon name="chevronDown" size={16} />
                </Accordion.ItemIndicator>
                <span className={css({ flex: 1 })}>{section.title}</span>
                <span className={css({ fontWeight: 'normal', fontSize: 'sm', color: 'fg.muted' })}>
                  {section.lessons.length} lessons
                </span>
              </Accordion.ItemTrigger>
            </h3>
            <Accordion.ItemContent>
              <ul className={css({ px: '4', py: '2' })}>
                {section.lessons.map((lesson) => (
                  <li
                    key={lesson.id}
                    className={css({ display: 'flex', gap: '3', alignItems: 'center', py: '2', fontSize: 'sm' })}
                  >
                    <Icon
                      name={lesson.isPreview ? 'play' : 'lock'}
                      size={14}
                      label={lesson.isPreview ? 'Preview lesson' : 'Locked lesson'}
                    />
                    <span className={css({ flex: 1 })}>{lesson.title}</span>
                    {lesson.isPreview ? (
                      <button
                        type="button"
                        aria-label={`Preview: ${lesson.title}`}
                        className={css({
                          color: 'accent',
                          fontWeight: 'semibold',
                          cursor: 'pointer',
                          textDecoration: 'underline',
                        })}
                        onClick={(event) => {
                          opener.current = event.currentTarget
                          setPreviewing(lesson)
                        }}
                      >
                        Preview
                      </button>
                    ) : null}
                    <span className={css({ color: 'fg.muted', fontVariantNumeric: 'tabular-nums' })}>
                      {formatLessonDuration(lesson.durationSeconds)}
                    </span>
                  </li>
                ))}
              </ul>
            </Accordion.ItemContent>
          </Accordion.Item>
        ))}
      </Accordion.Root>
      {previewing ? (
        <Suspense fallback={null}>
          <LessonPreviewDialog
            courseId={courseId}
            lessonId={previewing.id}
            title={previewing.title}
            onClose={() => setPreviewing(null)}
            returnFocusTo={() => opener.current}
          />
        </Suspense>
      ) : null}
    </div>
  )
}

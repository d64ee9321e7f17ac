import { lazy, Suspense, useRef, useState } from 'react'
import { countOf } from '#client/lib/format.ts'
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
        {countOf(sections.length, 'section')} • {countOf(totalLessons, 'lesson')}
      </p>
      {/* Native disclosure elements: they open and close before the page's scripts arrive, and the course page needs
          no UI library for them (Ark's accordion added 25 kB to its first load; issue 27). */}
      <div className={css({ borderWidth: '1px', borderColor: 'line', borderRadius: 'control', bg: 'surface' })}>
        {sections.map((section, index) => (
          <details
            key={section.title}
            open={index === 0}
            className={css({ borderBottomWidth: '1px', borderColor: 'line', _last: { borderBottomWidth: 0 } })}
          >
            <summary
              className={css({
                display: 'flex',
                gap: '3',
                alignItems: 'center',
                p: '4',
                fontWeight: 'semibold',
                cursor: 'pointer',
                bg: 'canvas',
                listStyle: 'none',
                '&::-webkit-details-marker': { display: 'none' },
              })}
            >
              <span
                aria-hidden="true"
                className={css({
                  display: 'flex',
                  transition: 'transform .2s',
                  'details[open] &': { transform: 'rotate(180deg)' },
                })}
              >
                <Icon name="chevronDown" size={16} />
              </span>
              <h3 className={css({ flex: 1, fontSize: 'inherit', fontWeight: 'inherit' })}>{section.title}</h3>
              <span className={css({ fontWeight: 'normal', fontSize: 'sm', color: 'fg.muted' })}>
                {countOf(section.lessons.length, 'lesson')}
              </span>
            </summary>
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
          </details>
        ))}
      </div>
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

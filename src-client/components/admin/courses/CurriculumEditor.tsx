// Sections and their lessons (title, 'm:ss' duration, preview flag). Lessons and duration are counted from it.
import { lazy, Suspense, useState } from 'react'
import { SectionDrip } from '#client/components/studio/SectionDrip.tsx'
import { button } from '#client/components/ui/button.ts'
import { CheckboxField, TextField } from '#client/components/ui/form.tsx'
import { css, cx } from '#styled-system/css'
import { fieldBox } from '../styles.ts'
import type { LessonState, SectionState } from './form-state.ts'

const LessonContentDialog = lazy(() => import('./LessonContentDialog.tsx'))

const row = css({ display: 'flex', gap: '2', alignItems: 'flex-end', flexWrap: 'wrap' })

export function CurriculumEditor({
  courseId,
  sections,
  onChange,
}: {
  /** The saved course's id: its saved lessons can have their content edited. */
  courseId?: string
  sections: SectionState[]
  onChange: (sections: SectionState[]) => void
}) {
  const [editing, setEditing] = useState<string | null>(null)
  const setSection = (index: number, section: SectionState) =>
    onChange(sections.map((current, i) => (i === index ? section : current)))
  const setLesson = (sectionIndex: number, lessonIndex: number, lesson: LessonState) => {
    const section = sections[sectionIndex]!
    setSection(sectionIndex, {
      ...section,
      lessons: section.lessons.map((current, i) => (i === lessonIndex ? lesson : current)),
    })
  }

  return (
    <fieldset className={css({ borderWidth: '1px', borderColor: 'line', borderRadius: 'control', p: '3' })}>
      <legend className={css({ fontSize: 'sm', fontWeight: 'semibold', px: '1' })}>Curriculum</legend>
      {sections.map((section, sectionIndex) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: controlled inputs; position is the identity of a row here
        <div key={sectionIndex} className={css({ mb: '4', pb: '3', borderBottomWidth: '1px', borderColor: 'line' })}>
          <div className={row}>
            <TextField
              label={`Section ${sectionIndex + 1} title`}
              className={cx(fieldBox, css({ flex: 1 }))}
              value={section.title}
              onChange={(event) => setSection(sectionIndex, { ...section, title: event.target.value })}
            />
            <button
              type="button"
              className={button({ variant: 'ghost', size: 'sm' })}
              onClick={() => onChange(sections.filter((_, i) => i !== sectionIndex))}
            >
              Remove section
            </button>
          </div>
          {courseId && section.id ? (
            <SectionDrip courseId={courseId} sectionId={section.id} title={section.title} />
          ) : null}
          {section.lessons.map((lesson, lessonIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: controlled inputs; position is the identity of a row here
            <div key={lessonIndex} className={`${row} ${css({ ml: '4', mt: '2' })}`}>
              <TextField
                label={`Lesson ${lessonIndex + 1} title`}
                className={cx(fieldBox, css({ flex: 1, minW: '40' }))}
                value={lesson.title}
                onChange={(event) => setLesson(sectionIndex, lessonIndex, { ...lesson, title: event.target.value })}
              />
              <TextField
                label="Duration (m:ss)"
                className={cx(fieldBox, css({ w: '24' }))}
                value={lesson.duration}
                placeholder="5:00"
                // An uploaded video's length is read from the file by the server.
                readOnly={lesson.durationFromVideo}
                title={lesson.durationFromVideo ? 'The length of the uploaded video' : undefined}
                onChange={(event) => setLesson(sectionIndex, lessonIndex, { ...lesson, duration: event.target.value })}
              />
              <CheckboxField
                label="Preview"
                className={css({ display: 'flex', alignItems: 'center', h: '10' })}
                checked={lesson.isPreview}
                onChange={(event) =>
                  setLesson(sectionIndex, lessonIndex, { ...lesson, isPreview: event.target.checked })
                }
              />
              {courseId && lesson.id ? (
                <button
                  type="button"
                  className={button({ variant: 'outline', size: 'sm' })}
                  aria-label={`Edit content of lesson ${lessonIndex + 1} of section ${sectionIndex + 1}`}
                  onClick={() => setEditing(lesson.id ?? null)}
                >
                  Content
                </button>
              ) : null}
              <button
                type="button"
                className={button({ variant: 'ghost', size: 'sm' })}
                aria-label={`Remove lesson ${lessonIndex + 1} of section ${sectionIndex + 1}`}
                onClick={() =>
                  setSection(sectionIndex, { ...section, lessons: section.lessons.filter((_, i) => i !== lessonIndex) })
                }
              >
                Remove
              </button>
            </div>
          ))}
          <button
            type="button"
            className={`${button({ variant: 'outline', size: 'sm' })} ${css({ ml: '4', mt: '2' })}`}
            onClick={() =>
              setSection(sectionIndex, {
                ...section,
                lessons: [...section.lessons, { title: '', duration: '5:00', isPreview: false }],
              })
            }
          >
            Add lesson
          </button>
        </div>
      ))}
      <button
        type="button"
        className={button({ variant: 'outline', size: 'sm' })}
        onClick={() => onChange([...sections, { title: '', lessons: [] }])}
      >
        Add section
      </button>
      {courseId && editing ? (
        <Suspense fallback={null}>
          <LessonContentDialog courseId={courseId} lessonId={editing} onClose={() => setEditing(null)} />
        </Suspense>
      ) : null}
    </fieldset>
  )
}

// The analytics pages' course picker for the lessons section (studio and staff): it fits a 320 px screen whatever
// the courses' titles.
import { Options, SelectField } from '#client/components/ui/form.tsx'
import { css, cx } from '#styled-system/css'
import { analyticsControl } from './control.ts'

export function CoursePicker({
  courses,
  value,
  onChange,
}: {
  courses: { courseId: string; title: string }[]
  value: string | undefined
  onChange: (courseId: string) => void
}) {
  return (
    <SelectField
      label="Course"
      className={css({ display: 'flex', flexDir: 'column', gap: '1', maxW: 'md', minW: 0 })}
      controlClassName={cx(analyticsControl, css({ w: 'full', minW: 0 }))}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    >
      <Options items={courses} value={(course) => course.courseId} label={(course) => course.title} />
    </SelectField>
  )
}

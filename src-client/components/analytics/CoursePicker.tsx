// The analytics pages' course picker for the lessons section (studio and staff): it fits a 320 px screen whatever
// the courses' titles.
import { Options } from '#client/components/ui/form.tsx'
import { css } from '#styled-system/css'

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
    <label className={css({ display: 'flex', flexDir: 'column', gap: '1', fontSize: 'sm', maxW: 'md', minW: 0 })}>
      Course
      <select
        className={css({
          h: '11',
          px: '2',
          w: 'full',
          minW: 0,
          borderWidth: '1px',
          borderColor: 'line',
          borderRadius: 'md',
        })}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <Options items={courses} value={(course) => course.courseId} label={(course) => course.title} />
      </select>
    </label>
  )
}

// The creator's courses as cards: image, title, state, price, lessons, and the links to edit each part.
import { Link } from '@tanstack/react-router'
import { borderedCard } from '#client/components/ui/card.ts'
import { SafeImage } from '#client/components/ui/SafeImage.tsx'
import { countOf } from '#client/lib/format.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { formatMoney } from '#shared/money.ts'
import { css, cx } from '#styled-system/css'
import { StateBadge } from './StateBadge.tsx'

type StudioCourse = RouterOutputs['studio']['myCourses']['items'][number]

const card = cx(
  borderedCard,
  css({
    display: 'grid',
    gridTemplateColumns: { base: '4.5rem 1fr', md: '7rem 1fr auto' },
    gap: { base: '3', md: '4' },
    alignItems: 'center',
    p: '3',
  }),
)
const actions = css({
  display: 'flex',
  gap: '3',
  gridColumn: { base: '1 / -1', md: 'auto' },
  fontSize: 'sm',
  fontWeight: 'semibold',
  '& a': { color: 'accent', textDecoration: 'underline', minH: '11', display: 'inline-flex', alignItems: 'center' },
})

/** The parts of a course its card links to; each link's name also says its course ('Details of …'). */
const PARTS = [
  { label: 'Details', to: '/studio/courses/$courseId' },
  { label: 'Curriculum', to: '/studio/courses/$courseId/curriculum' },
] as const

export function StudioCourseList({ courses }: { courses: StudioCourse[] }) {
  return (
    <ul aria-label="Your courses" className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
      {courses.map((course) => (
        <li key={course.id} className={card}>
          <SafeImage
            src={course.imageUrl}
            alt=""
            className={css({ w: 'full', aspectRatio: '16 / 10', objectFit: 'cover', borderRadius: 'control' })}
          />
          <div className={css({ minW: 0, display: 'flex', flexDir: 'column', gap: '1' })}>
            <h2 className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>
              <Link to="/studio/courses/$courseId" params={{ courseId: course.id }}>
                {course.title}
              </Link>
            </h2>
            <p className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center', fontSize: 'sm' })}>
              <StateBadge status={course.status} />
              {course.hasPendingChanges ? <span>Changes pending review</span> : null}
              <span>{course.priceMinor === 0 ? 'Free' : formatMoney(course.priceMinor, course.currency)}</span>
              <span>{countOf(course.lessons, 'lesson')}</span>
              {course.role === 'co' ? <span>Co-instructor</span> : null}
            </p>
          </div>
          <div className={actions}>
            {PARTS.map((part) => (
              <Link
                key={part.to}
                to={part.to}
                params={{ courseId: course.id }}
                aria-label={`${part.label} of ${course.title}`}
              >
                {part.label}
              </Link>
            ))}
          </div>
        </li>
      ))}
    </ul>
  )
}

// 'My courses': the courses the learner bought or started (through Premium), with their real progress and a
// Continue learning button into the player.

import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'
import { ProgressBar } from '../learning/ProgressBar.tsx'
import { progressLabel } from '../learning/progress-label.ts'
import { button } from '../ui/button.ts'
import { borderedCard } from '../ui/card.ts'
import { QueryList } from '../ui/QueryList.tsx'
import { SafeImage } from '../ui/SafeImage.tsx'

type MyCourse = RouterOutputs['learning']['myCourses'][number]

export function MyCourses() {
  const trpc = useTRPC()
  const courses = useQuery(trpc.learning.myCourses.queryOptions())
  return (
    <QueryList
      query={courses}
      loading="Loading your courses…"
      failed="Failed to load your courses"
      empty="You have not enrolled in any course yet"
      emptyAction={
        <Link to="/courses" className={`${button()} ${css({ mt: '4' })}`}>
          Browse Courses
        </Link>
      }
    >
      {(list) => <CourseList courses={list} />}
    </QueryList>
  )
}

function CourseList({ courses }: { courses: MyCourse[] }) {
  return (
    <ul
      data-testid="my-courses"
      className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' } })}
    >
      {courses.map((course) => (
        <li key={course.id} className={cx(borderedCard, css({ overflow: 'hidden' }))}>
          <SafeImage src={course.image} alt="" className={css({ w: 'full', h: '32', objectFit: 'cover' })} />
          <div className={css({ p: '4' })}>
            <h3 className={css({ fontWeight: 'semibold' })}>
              <Link to="/courses/$courseId" params={{ courseId: course.id }}>
                {course.title}
              </Link>
            </h3>
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{course.instructor}</p>
            <p className={css({ fontSize: 'sm', mt: '2' })} data-testid="my-course-status">
              {course.enrolledAt ? `Enrolled ${formatDate(course.enrolledAt, 'medium')} · ` : ''}
              {progressLabel(course.progress, course.completedAt)}
            </p>
            <ProgressBar percent={course.progress.percent} label={`Progress in ${course.title}`} />
            <Link
              to="/learn/$courseId"
              params={{ courseId: course.id }}
              className={`${button({ size: 'sm' })} ${css({ mt: '3' })}`}
            >
              Continue learning
            </Link>
          </div>
        </li>
      ))}
    </ul>
  )
}

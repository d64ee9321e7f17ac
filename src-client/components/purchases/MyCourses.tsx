// 'My courses': the courses the learner bought or started (through Premium), with their real progress and a
// Continue learning button into the player; a course's next live session, and the way to /live (decision 0142). On a
// school's own domain, the school's courses only, and a link to the rest on the marketplace (decision 0150).

import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useSite } from '#client/lib/site.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'
import { SchoolSiteItems } from '../layout/ElsewhereNote.tsx'
import { ProgressBar } from '../learning/ProgressBar.tsx'
import { progressLabel } from '../learning/progress-label.ts'
import { LiveSessionLine, type UpcomingSession } from '../live/UpcomingLive.tsx'
import { button } from '../ui/button.ts'
import { borderedCard } from '../ui/card.ts'
import { QueryList } from '../ui/QueryList.tsx'
import { SafeImage } from '../ui/SafeImage.tsx'

type MyCourse = RouterOutputs['learning']['myCourses'][number]

export function MyCourses() {
  const trpc = useTRPC()
  const courses = useQuery(trpc.learning.myCourses.queryOptions())
  const site = useSite()
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
      {(list) =>
        site ? (
          <SchoolSiteItems
            site={site}
            items={list}
            empty={`You have not enrolled in any of ${site.name}’s courses yet.`}
            note={{
              noun: ['course in your account', 'courses in your account'],
              path: '/account#my-courses',
              linkText: 'See all your courses',
              testId: 'my-courses-elsewhere',
            }}
          >
            {(own) => <CourseList courses={own} />}
          </SchoolSiteItems>
        ) : (
          <CourseList courses={list} />
        )
      }
    </QueryList>
  )
}

/** The sessions ahead the learner may attend, by course: nothing while loading or when it fails (see /live). */
function useUpcomingByCourse() {
  const trpc = useTRPC()
  const upcoming = useQuery(trpc.live.upcoming.queryOptions({}))
  const byCourse = new Map<string, UpcomingSession[]>()
  for (const session of upcoming.data ?? []) {
    if (session.courseId) byCourse.set(session.courseId, [...(byCourse.get(session.courseId) ?? []), session])
  }
  return byCourse
}

function CourseList({ courses }: { courses: MyCourse[] }) {
  const live = useUpcomingByCourse()
  const withLive = courses.filter((course) => live.has(course.id)).length
  return (
    <>
      {withLive > 0 ? (
        <p className={css({ mb: '4', fontSize: 'sm' })}>
          {withLive === 1 ? 'One of your courses has' : `${withLive} of your courses have`} live sessions ahead.{' '}
          <Link to="/live" className={css({ textDecoration: 'underline', fontWeight: 'semibold' })}>
            See live sessions
          </Link>
        </p>
      ) : null}
      <CourseCards courses={courses} live={live} />
    </>
  )
}

function CourseCards({ courses, live }: { courses: MyCourse[]; live: Map<string, UpcomingSession[]> }) {
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
            <CourseLive sessions={live.get(course.id)} />
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

function CourseLive({ sessions }: { sessions: UpcomingSession[] | undefined }) {
  const next = sessions?.[0]
  return next ? (
    <LiveSessionLine session={next} more={(sessions?.length ?? 1) - 1} className={css({ mt: '2' })} />
  ) : null
}

// One course's lessons: the share of its learners who reached each, completions, quiz pass rate, and for videos
// where viewers stopped (10-second buckets of the end of what they watched), as a chart with its table.
// LessonsPanel is the analytics pages' Lessons section around it (studio and staff): the course picker, then the stats.
import {
  keepPreviousData,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
  useQuery,
} from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import type { RouterOutputs } from '#client/lib/types.ts'
import { css } from '#styled-system/css'
import { AnalyticsChart } from './AnalyticsChart.tsx'
import { colorAt } from './AnalyticsChartDrawing.tsx'
import { CoursePicker } from './CoursePicker.tsx'
import { ReportTable } from './ReportTable.tsx'

type Lessons = RouterOutputs['analytics']['shopLessons']

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)} %` : '0 %')
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`

/**
 * The course whose lessons show (the one in the address, else the first) and its lessons from `lessonsOf` (the shop's
 * or the creator's query); the last course's stay on screen while another one's load.
 */
export function useCourseLessons<Failure, Key extends QueryKey>(
  courses: { courseId: string }[],
  selected: string | undefined,
  lessonsOf: (courseId: string) => UseQueryOptions<Lessons, Failure, Lessons, Key>,
) {
  const courseId = selected ?? courses[0]?.courseId
  const lessons = useQuery({
    ...lessonsOf(courseId ?? ''),
    enabled: Boolean(courseId),
    placeholderData: keepPreviousData,
  })
  return { courseId, lessons }
}

/**
 * The Lessons section: pick one of `courses` (`courseId`, changed through `onCourse`), then its lessons' stats from
 * `lessons`, the query of the picked course. With no course, `noCourse` stands in its place (no section without it).
 */
export function LessonsPanel({
  className,
  courses,
  courseId,
  onCourse,
  lessons,
  noCourse,
}: {
  className: string
  courses: { courseId: string; title: string }[]
  courseId: string | undefined
  onCourse: (courseId: string) => void
  lessons: UseQueryResult<Lessons, unknown>
  noCourse?: ReactNode
}) {
  if (courses.length === 0 && !noCourse) return null
  return (
    <TitledSection id="lessons-heading" title="Lessons" className={className}>
      {courses.length === 0 ? (
        noCourse
      ) : (
        <>
          <CoursePicker courses={courses} value={courseId} onChange={onCourse} />
          {lessons.isError ? (
            <ErrorState title="Could not load the lessons" onRetry={() => void lessons.refetch()} />
          ) : lessons.data ? (
            <LessonStats data={lessons.data} />
          ) : (
            <LoadingState label="Loading lessons…" />
          )}
        </>
      )}
    </TitledSection>
  )
}

export function LessonStats({ data }: { data: Lessons }) {
  const videos = data.lessons.filter((lesson) => lesson.stopBuckets.length > 0)
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
      <ReportTable
        rows={data.lessons}
        label="Lessons: reach and quiz pass rate"
        testId="lessons-table"
        head={['Lesson', 'Reached', 'Share of learners', 'Completed', 'Quiz passed']}
        rowKey={(lesson) => lesson.lessonId}
        rowHead={(lesson) => lesson.title}
        cells={(lesson) => [
          lesson.reached,
          percent(lesson.reached, data.learners),
          lesson.completed,
          lesson.quizTakers > 0
            ? `${lesson.quizPassers} of ${lesson.quizTakers} (${percent(lesson.quizPassers, lesson.quizTakers)})`
            : '—',
        ]}
      />
      {videos.map((lesson) => (
        <AnalyticsChart
          key={lesson.lessonId}
          title={`Where viewers stopped: ${lesson.title}`}
          periodLabel="Stopped between"
          rows={lesson.stopBuckets.map((viewers, index) => ({
            period: `${clock(index * 10)}–${clock(index * 10 + 10)}`,
            viewers,
          }))}
          series={[{ key: 'viewers', label: 'Viewers', color: colorAt(1) }]}
          format={(value) => String(value)}
        />
      ))}
    </div>
  )
}

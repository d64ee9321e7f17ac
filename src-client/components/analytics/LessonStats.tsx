// One course's lessons: the share of its learners who reached each, completions, quiz pass rate, and for videos
// where viewers stopped (10-second buckets of the end of what they watched), as a chart with its table.

import { ScrollRegion, stickyFirstColumn } from '#client/components/ui/ScrollRegion.tsx'
import type { RouterOutputs } from '#client/lib/types.ts'
import { css, cx } from '#styled-system/css'
import { AnalyticsChart, tableStyle } from './AnalyticsChart.tsx'
import { colorAt } from './AnalyticsChartDrawing.tsx'

type Lessons = RouterOutputs['analytics']['shopLessons']

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)} %` : '0 %')
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`

export function LessonStats({ data }: { data: Lessons }) {
  const videos = data.lessons.filter((lesson) => lesson.stopBuckets.length > 0)
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
      <ScrollRegion label="Lessons: reach and quiz pass rate">
        <table className={cx(tableStyle, stickyFirstColumn)} data-testid="lessons-table">
          <thead>
            <tr>
              <th scope="col" className={css({ textAlign: 'left!' })}>
                Lesson
              </th>
              <th scope="col">Reached</th>
              <th scope="col">Share of learners</th>
              <th scope="col">Completed</th>
              <th scope="col">Quiz passed</th>
            </tr>
          </thead>
          <tbody>
            {data.lessons.map((lesson) => (
              <tr key={lesson.lessonId}>
                <th scope="row" className={css({ textAlign: 'left!', fontWeight: 'normal' })}>
                  {lesson.title}
                </th>
                <td>{lesson.reached}</td>
                <td>{percent(lesson.reached, data.learners)}</td>
                <td>{lesson.completed}</td>
                <td>
                  {lesson.quizTakers > 0
                    ? `${lesson.quizPassers} of ${lesson.quizTakers} (${percent(lesson.quizPassers, lesson.quizTakers)})`
                    : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
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

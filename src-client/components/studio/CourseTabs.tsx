// The tab row of a course in the studio: Details, Curriculum, Publish, and Preview (the player, as a learner sees it).
import { Link } from '@tanstack/react-router'
import { css } from '#styled-system/css'
import { studioTab } from './tab.ts'

const row = css({
  display: 'flex',
  gap: '1',
  borderBottomWidth: '1px',
  borderColor: 'line',
  overflowX: 'auto',
})

export function CourseTabs({ courseId }: { courseId: string }) {
  return (
    <nav aria-label="Course" className={row}>
      <Link className={studioTab} to="/studio/courses/$courseId" params={{ courseId }} activeOptions={{ exact: true }}>
        Details
      </Link>
      <Link className={studioTab} to="/studio/courses/$courseId/curriculum" params={{ courseId }}>
        Curriculum
      </Link>
      <Link className={studioTab} to="/studio/courses/$courseId/publish" params={{ courseId }}>
        Publish
      </Link>
      <Link className={studioTab} to="/learn/$courseId" params={{ courseId }}>
        Preview
      </Link>
    </nav>
  )
}

// The tab row of a course in the studio: Details, Curriculum, Publish, and Preview (the player, as a learner sees it).
import { Link } from '@tanstack/react-router'
import { css } from '#styled-system/css'

const row = css({
  display: 'flex',
  gap: '1',
  borderBottomWidth: '1px',
  borderColor: 'line',
  overflowX: 'auto',
  '& a': {
    display: 'inline-flex',
    alignItems: 'center',
    minH: '11',
    px: '3',
    fontSize: 'sm',
    fontWeight: 'semibold',
    color: 'fg.muted',
    borderBottomWidth: '2px',
    borderColor: 'transparent',
    whiteSpace: 'nowrap',
    _hover: { color: 'fg' },
  },
  '& a[aria-current=page]': { color: 'fg', borderColor: 'accent' },
})

export function CourseTabs({ courseId }: { courseId: string }) {
  return (
    <nav aria-label="Course" className={row}>
      <Link to="/studio/courses/$courseId" params={{ courseId }} activeOptions={{ exact: true }}>
        Details
      </Link>
      <Link to="/studio/courses/$courseId/curriculum" params={{ courseId }}>
        Curriculum
      </Link>
      <Link to="/studio/courses/$courseId/publish" params={{ courseId }}>
        Publish
      </Link>
      <Link to="/learn/$courseId" params={{ courseId }}>
        Preview
      </Link>
    </nav>
  )
}

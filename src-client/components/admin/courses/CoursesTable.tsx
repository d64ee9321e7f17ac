// The spec's course table: Course (image, title, truncated description, 'lessons • duration • level'),
// Category, Price, Status, Featured, Actions.

import { Link } from '@tanstack/react-router'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { SafeImage } from '#client/components/ui/SafeImage.tsx'
import { countOf, formatDuration } from '#client/lib/format.ts'
import { capitalise } from '#shared/constants.ts'
import { coursePricesLabel } from '#shared/course-prices.ts'
import { css } from '#styled-system/css'
import { AdminTable, RowAction } from '../AdminTable.tsx'
import { FeaturedSwitch } from './FeaturedSwitch.tsx'
import type { AdminCourse } from './form-state.ts'

export function CoursesTable({
  courses,
  canEdit,
  onEdit,
  onDelete,
}: {
  courses: AdminCourse[]
  canEdit: boolean
  onEdit: (course: AdminCourse) => void
  onDelete: (course: AdminCourse) => void
}) {
  return (
    <AdminTable scrollLabel="Courses" columns={['Course', 'Category', 'Price', 'Status', 'Featured', 'Actions']}>
      {courses.map((course) => (
        <tr key={course.id} data-testid={`course-row-${course.id}`}>
          {/* The sticky first column: narrow on a phone (no picture) so the other columns scroll beside it. */}
          <td className={css({ minW: { base: '40', md: 'auto' }, maxW: { base: '48', md: 'none' } })}>
            <div className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
              <SafeImage
                src={course.imageUrl}
                alt=""
                className={css({
                  display: { base: 'none', md: 'block' },
                  w: '16',
                  h: '12',
                  objectFit: 'cover',
                  borderRadius: 'control',
                  flexShrink: 0,
                })}
              />
              <div className={css({ minW: 0 })}>
                <p className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{course.title}</p>
                <p className={css({ color: 'fg.muted', maxW: { base: 'full', md: '300px' }, truncate: true })}>
                  {course.description}
                </p>
                <p className={css({ color: 'fg.muted', fontSize: 'xs' })}>
                  {countOf(course.lessons, 'lesson')} • {formatDuration(course.durationMinutes)} •{' '}
                  {capitalise(course.level)}
                </p>
              </div>
            </div>
          </td>
          <td>{course.category}</td>
          <td>{coursePricesLabel(course.prices)}</td>
          <td>
            <span className={badge({ tone: course.status === 'published' ? 'green' : 'yellow' })}>
              {capitalise(course.status)}
            </span>
          </td>
          <td>
            <FeaturedSwitch id={course.id} title={course.title} featured={course.featured} disabled={!canEdit} />
          </td>
          <td>
            {/* Wraps rather than pushing Delete past the edge of narrower screens. */}
            <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '1', minW: '20' })}>
              <a
                href={`/courses/${course.id}`}
                target="_blank"
                rel="noreferrer"
                className={button({ variant: 'ghost', size: 'sm' })}
                aria-label={`View ${course.title}`}
              >
                View
              </a>
              <Link
                to="/admin/reviews"
                search={{ course: course.id }}
                className={button({ variant: 'ghost', size: 'sm' })}
                aria-label={`Reviews of ${course.title}`}
              >
                Reviews
              </Link>
              {canEdit ? (
                <>
                  <RowAction action="Edit" row={course.title} onClick={() => onEdit(course)} />
                  <RowAction action="Delete" row={course.title} onClick={() => onDelete(course)} />
                </>
              ) : null}
            </div>
          </td>
        </tr>
      ))}
    </AdminTable>
  )
}

// The spec's course table: Course (image, title, truncated description, 'lessons • duration • level'),
// Category, Price, Status, Featured, Actions.
import { Link } from '@tanstack/react-router'
import { capitalise } from '../../../../src-shared/constants.ts'
import { formatMoney } from '../../../../src-shared/money.ts'
import { css } from '../../../../styled-system/css'
import { formatDuration } from '../../../lib/format.ts'
import { button } from '../../ui/button.ts'
import { SafeImage } from '../../ui/SafeImage.tsx'
import { badge, table } from '../styles.ts'
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
    <table className={table}>
      <thead>
        <tr>
          <th>Course</th>
          <th>Category</th>
          <th>Price</th>
          <th>Status</th>
          <th>Featured</th>
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        {courses.map((course) => (
          <tr key={course.id} data-testid={`course-row-${course.id}`}>
            <td>
              <div className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
                <SafeImage
                  src={course.imageUrl}
                  alt=""
                  className={css({ w: '16', h: '12', objectFit: 'cover', borderRadius: 'control', flexShrink: 0 })}
                />
                <div>
                  <p className={css({ fontWeight: 'semibold' })}>{course.title}</p>
                  <p className={css({ color: 'fg.muted', maxW: '300px', truncate: true })}>{course.description}</p>
                  <p className={css({ color: 'fg.muted', fontSize: 'xs' })}>
                    {course.lessons} lessons • {formatDuration(course.durationMinutes)} • {capitalise(course.level)}
                  </p>
                </div>
              </div>
            </td>
            <td>{course.category}</td>
            <td>{formatMoney(course.priceMinor, course.currency)}</td>
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
                    <button
                      type="button"
                      className={button({ variant: 'ghost', size: 'sm' })}
                      aria-label={`Edit ${course.title}`}
                      onClick={() => onEdit(course)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className={button({ variant: 'ghost', size: 'sm' })}
                      aria-label={`Delete ${course.title}`}
                      onClick={() => onDelete(course)}
                    >
                      Delete
                    </button>
                  </>
                ) : null}
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

import { Link } from '@tanstack/react-router'
import { lazy, type ReactNode, Suspense, useRef, useState } from 'react'
import { countOf, formatDuration } from '#client/lib/format.ts'
import type { CourseCard as CourseCardData } from '#client/lib/types.ts'
import type { CourseChannel } from '#shared/cart.ts'
import { capitalise } from '#shared/constants.ts'
import { formatMoney } from '#shared/money.ts'
import { css, cx } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { listingCard } from '../ui/card.ts'
import { Icon } from '../ui/icons.tsx'
import { SafeImage } from '../ui/SafeImage.tsx'
import { Stars } from '../ui/Stars.tsx'

const CoursePreviewDialog = lazy(() => import('./CoursePreviewDialog.tsx'))

/**
 * A course in a grid. `preview` adds the Course Preview dialog button (home page); `cartAction` is where the
 * cart's Add to Cart button goes, and `previewCartAction` the one inside the dialog.
 */
export function CourseCard({
  course,
  preview = false,
  cartAction,
  previewCartAction,
  priority = false,
  from,
}: {
  course: CourseCardData
  /** The catalogue's cards: the course page's address says how the buyer got there (`?from=`), for analytics. */
  from?: CourseChannel
  preview?: boolean
  /** The first card above the fold: its image is the page's largest paint, fetched first and not lazily. */
  priority?: boolean
  cartAction?: ReactNode
  previewCartAction?: ReactNode
}) {
  return (
    <article
      data-testid="course-card"
      className={cx(listingCard, css({ transition: 'transform .15s', _hover: { transform: 'translateY(-2px)' } }))}
    >
      <Link
        to="/courses/$courseId"
        params={{ courseId: course.id }}
        search={from ? { from } : {}}
        tabIndex={-1}
        aria-hidden
      >
        <SafeImage
          src={course.image}
          alt={course.title}
          width={640}
          height={360}
          {...(priority ? { loading: 'eager', fetchPriority: 'high' } : {})}
          className={css({ aspectRatio: '16/9', objectFit: 'cover', w: 'full' })}
        />
      </Link>
      <div className={css({ p: '4', display: 'flex', flexDir: 'column', gap: '2', flex: 1 })}>
        <span
          className={css({
            fontSize: 'xs',
            fontWeight: 'semibold',
            color: 'accent',
            textTransform: 'uppercase',
            letterSpacing: 'wide',
          })}
        >
          {course.category}
        </span>
        <h3 className={css({ fontWeight: 'semibold', lineHeight: 'snug' })}>
          <Link
            to="/courses/$courseId"
            params={{ courseId: course.id }}
            search={from ? { from } : {}}
            className={css({ _hover: { color: 'accent' } })}
          >
            {course.title}
          </Link>
        </h3>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{course.instructor}</p>
        <div className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' })}>
          {course.reviewCount > 0 ? (
            <Stars rating={course.rating} reviewCount={course.reviewCount} />
          ) : (
            <span className={css({ color: 'fg.muted' })}>No reviews yet</span>
          )}
        </div>
        <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
          {countOf(course.lessons, 'lesson')} • {formatDuration(course.durationMinutes)} • {capitalise(course.level)}
        </p>
        <div className={css({ mt: 'auto', pt: '2', display: 'flex', alignItems: 'baseline', gap: '2' })}>
          <span className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
            {course.priceMinor === 0 ? 'Free' : formatMoney(course.priceMinor, course.currency)}
          </span>
          {course.originalPriceMinor && course.originalPriceMinor > course.priceMinor ? (
            <>
              {/* Strike-through is not read aloud: say what the second price is. */}
              <span className={css({ srOnly: true })}>Original price:</span>
              <s className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                {formatMoney(course.originalPriceMinor, course.currency)}
              </s>
            </>
          ) : null}
        </div>
        {preview || cartAction ? (
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', pt: '2' })}>
            {preview ? <PreviewButton course={course} cartAction={previewCartAction} /> : null}
            {cartAction}
          </div>
        ) : null}
      </div>
    </article>
  )
}

function PreviewButton({ course, cartAction }: { course: CourseCardData; cartAction?: ReactNode }) {
  const [open, setOpen] = useState(false)
  const buttonRef = useRef<HTMLButtonElement>(null)
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={button({ variant: 'outline', size: 'sm' })}
        aria-label={`Preview ${course.title}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <Icon name="play" size={14} /> Preview
      </button>
      {open ? (
        <Suspense fallback={null}>
          <CoursePreviewDialog
            course={course}
            cartAction={cartAction}
            onClose={() => setOpen(false)}
            returnFocusTo={() => buttonRef.current}
          />
        </Suspense>
      ) : null}
    </>
  )
}

import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import type { CourseCard } from '#client/lib/types.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { Dialog, PreviewDialogFrame } from '../ui/PreviewDialogFrame.tsx'
import { SafeImage } from '../ui/SafeImage.tsx'

/**
 * The Course Preview dialog (spec §2 Home): image, title, instructor, description. `cartAction` is where the
 * cart's Add to cart button goes (it disables itself once the course is in the cart). Loaded on first use, so
 * the dialog code stays out of the home page's initial JavaScript.
 */
export default function CoursePreviewDialog({
  course,
  cartAction,
  onClose,
  returnFocusTo,
}: {
  course: CourseCard
  cartAction?: ReactNode
  onClose: () => void
  /** The Preview button, which gets focus back when the dialog closes. */
  returnFocusTo: () => HTMLElement | null
}) {
  return (
    <PreviewDialogFrame onClose={onClose} returnFocusTo={returnFocusTo} className={css({ maxW: 'lg' })}>
      <SafeImage
        src={course.image}
        alt={course.title}
        width={640}
        height={360}
        className={css({
          w: 'full',
          aspectRatio: '16/9',
          objectFit: 'cover',
          borderTopRadius: { base: '0', sm: 'card' },
        })}
      />
      <div className={css({ p: '6', display: 'grid', gap: '3' })}>
        <Dialog.Title className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{course.title}</Dialog.Title>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>By {course.instructor}</p>
        <Dialog.Description className={css({ color: 'fg.muted', fontSize: 'sm' })}>
          {course.description}
        </Dialog.Description>
        <p className={css({ fontWeight: 'bold', fontSize: 'lg' })}>
          {course.priceMinor === 0 ? 'Free' : formatMoney(course.priceMinor, course.currency)}
        </p>
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          {cartAction}
          <Link to="/courses/$courseId" params={{ courseId: course.id }} className={button({ variant: 'outline' })}>
            View Course
          </Link>
        </div>
      </div>
    </PreviewDialogFrame>
  )
}

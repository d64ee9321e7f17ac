import type { ReactNode } from 'react'
import { useDateFormat } from '#client/lib/local-date.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { capitalise } from '#shared/constants.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { SafeImage } from '../ui/SafeImage.tsx'

type Course = NonNullable<RouterOutputs['catalog']['course']>

export function hoursOfContent(minutes: number): string {
  const hours = Math.round((minutes / 60) * 10) / 10
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`
}

/** The course page's price and purchase box. `cartAction` is where the cart's Add to Cart button goes. */
export function PurchaseBox({ course, cartAction }: { course: Course; cartAction?: ReactNode }) {
  const formatDate = useDateFormat()
  const discounted = course.originalPriceMinor !== null && course.originalPriceMinor > course.priceMinor
  return (
    <aside
      aria-label="Purchase"
      data-surface="light"
      className={css({ bg: 'surface', borderRadius: 'card', boxShadow: 'raised', overflow: 'hidden', color: 'fg' })}
    >
      <SafeImage
        src={course.image}
        alt={course.title}
        width={640}
        height={360}
        // The course page's main image: fetched first, never lazily.
        loading="eager"
        fetchPriority="high"
        className={css({ w: 'full', aspectRatio: '16/9', objectFit: 'cover' })}
      />
      <div className={css({ p: '6', display: 'grid', gap: '4' })}>
        <p className={css({ display: 'flex', alignItems: 'baseline', gap: '3' })}>
          <span className={css({ fontSize: '3xl', fontWeight: 'extrabold' })} data-testid="course-price">
            {course.priceMinor === 0 ? 'Free' : formatMoney(course.priceMinor, course.currency)}
          </span>
          {discounted && course.originalPriceMinor !== null ? (
            <>
              {/* Strike-through is not read aloud: say what the second price is. */}
              <span className={css({ srOnly: true })}>Original price:</span>
              <s className={css({ color: 'fg.muted' })} data-testid="course-original-price">
                {formatMoney(course.originalPriceMinor, course.currency)}
              </s>
            </>
          ) : null}
        </p>
        {cartAction}
        <dl
          className={css({
            display: 'grid',
            gridTemplateColumns: 'auto 1fr',
            gap: '2',
            fontSize: 'sm',
            '& dt': { color: 'fg.muted' },
          })}
        >
          <dt>Level</dt>
          <dd>{capitalise(course.level)}</dd>
          <dt>Duration</dt>
          <dd>{hoursOfContent(course.durationMinutes)}</dd>
          <dt>Last updated</dt>
          <dd>{formatDate(course.lastUpdated)}</dd>
        </dl>
        <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>30-day money-back guarantee</p>
      </div>
    </aside>
  )
}

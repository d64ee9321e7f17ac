import { type ReactNode, useState } from 'react'
import { countOf } from '#client/lib/format.ts'
import { useDateFormat } from '#client/lib/local-date.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { capitalise } from '#shared/constants.ts'
import { soldIn } from '#shared/course-prices.ts'
import { type Currency, formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { SelectField } from '../ui/form.tsx'
import { SafeImage } from '../ui/SafeImage.tsx'

type Course = NonNullable<RouterOutputs['catalog']['course']>

/** 13 → '13 minutes', 90 → '1.5 hours' (the spec's "duration in hours"; under an hour, a tenth of an hour reads oddly). */
export function hoursOfContent(minutes: number): string {
  if (minutes < 60) return countOf(minutes, 'minute')
  return countOf(Math.round((minutes / 60) * 10) / 10, 'hour')
}

/**
 * The course page's price and purchase box. `cartAction` is where the cart's Add to Cart button goes, given the
 * currency the buyer chose: a course priced in USD and GBP offers both ("Pay in"), and the server charges the price
 * in the chosen one (decision 0069).
 */
export function PurchaseBox({
  course,
  cartAction,
}: {
  course: Course
  cartAction?: ReactNode | ((currency: Currency) => ReactNode)
}) {
  const formatDate = useDateFormat()
  const currencies = soldIn(course.prices)
  const [chosen, setChosen] = useState<Currency>(
    currencies.includes(course.currency as Currency) ? (course.currency as Currency) : (currencies[0] ?? 'USD'),
  )
  const shownPrice = course.prices[chosen] ?? course.priceMinor
  const shownCurrency = course.prices[chosen] === null ? course.currency : chosen
  const discounted =
    shownCurrency === course.currency &&
    course.originalPriceMinor !== null &&
    course.originalPriceMinor > course.priceMinor
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
            {shownPrice === 0 ? 'Free' : formatMoney(shownPrice, shownCurrency)}
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
        {currencies.length > 1 ? (
          <SelectField
            label="Pay in"
            value={chosen}
            onChange={(event) => setChosen(event.target.value === 'GBP' ? 'GBP' : 'USD')}
            className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' })}
            controlClassName={css({ borderWidth: '1px', borderRadius: 'control', px: '2', py: '1', bg: 'surface' })}
          >
            <option value="USD">US dollars ($)</option>
            <option value="GBP">Pounds (£)</option>
          </SelectField>
        ) : null}
        {typeof cartAction === 'function' ? cartAction(chosen) : cartAction}
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

// Net revenue per day (taken less refunded, by the day each order was paid) for one currency over the last 30 days: a small bar chart in plain SVG (no chart library).
import { countOf } from '#client/lib/format.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'

interface Point {
  day: string
  orders: number
  revenueMinor: number
}

const WIDTH = 600
const HEIGHT = 140
const GAP = 2

export function SalesChart({ currency, points }: { currency: string; points: Point[] }) {
  const max = Math.max(1, ...points.map((point) => point.revenueMinor))
  const barWidth = WIDTH / points.length - GAP
  const total = points.reduce((sum, point) => sum + point.revenueMinor, 0)
  return (
    <figure className={css({ m: 0 })}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Net revenue in ${currency} per day over the last ${points.length} days: ${formatMoney(total, currency)} in total`}
        className={css({ w: 'full', h: 'auto', display: 'block' })}
      >
        <line x1={0} y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} stroke="#e2e8f0" />
        {points.map((point, index) => {
          const height = point.revenueMinor === 0 ? 0 : Math.max(2, (point.revenueMinor / max) * (HEIGHT - 10))
          return (
            <rect
              key={point.day}
              x={index * (barWidth + GAP)}
              y={HEIGHT - height}
              width={barWidth}
              height={height}
              rx={2}
              fill="#2553e0"
            >
              <title>{`${point.day}: ${countOf(point.orders, 'order')}, ${formatMoney(point.revenueMinor, currency)}`}</title>
            </rect>
          )
        })}
      </svg>
      <figcaption
        className={css({
          display: 'flex',
          justifyContent: 'space-between',
          fontSize: 'xs',
          color: 'fg.muted',
          mt: '1',
        })}
      >
        <span>{points[0]?.day}</span>
        <span>{points[points.length - 1]?.day}</span>
      </figcaption>
    </figure>
  )
}

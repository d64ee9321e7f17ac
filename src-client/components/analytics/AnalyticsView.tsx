// The analytics page body shared by the studio (a creator's courses) and the admin (the shop): a date range form,
// per currency the revenue chart with its table and the change against the previous period, units by channel, the
// course page's funnel, ratings over time, refunds by reason, courses and learners. Amounts are shown per currency, never summed across currencies.
import type { ComponentProps, ReactNode } from 'react'
import { button } from '#client/components/ui/button.ts'
import { SelectField, TextField } from '#client/components/ui/form.tsx'
import { ScrollRegion } from '#client/components/ui/ScrollRegion.tsx'
import { EmptyState } from '#client/components/ui/states.tsx'
import { countOf } from '#client/lib/format.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { AnalyticsChart, tableStyle } from './AnalyticsChart.tsx'
import { type ChartSeries, colorAt } from './AnalyticsChartDrawing.tsx'
import { AnalyticsSection } from './AnalyticsSection.tsx'
import { analyticsControl } from './control.ts'
import { ReportTable } from './ReportTable.tsx'

export type AnalyticsReport = RouterOutputs['analytics']['shop'] | RouterOutputs['analytics']['creator']
export interface RangeValue {
  from: string
  to: string
  granularity: 'day' | 'week' | 'month'
}

const figureGrid = css({
  display: 'grid',
  gridTemplateColumns: { base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
  gap: '3',
  m: 0,
})

/** "+12 %" against the previous period, or "new" / "no change". */
export function change(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? 'no change' : 'new'
  const percent = Math.round(((current - previous) / Math.abs(previous)) * 100)
  return `${percent > 0 ? '+' : ''}${percent} % vs previous period`
}

export function RangeForm({ value, onChange }: { value: RangeValue; onChange: (range: RangeValue) => void }) {
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      aria-label="Date range"
      className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'flex-end' })}
      onSubmit={(event) => {
        event.preventDefault()
        const data = new FormData(event.currentTarget)
        onChange({
          from: String(data.get('from')),
          to: String(data.get('to')),
          granularity: String(data.get('granularity')) as RangeValue['granularity'],
        })
      }}
    >
      <TextField
        label="From"
        type="date"
        name="from"
        defaultValue={value.from}
        required
        controlClassName={analyticsControl}
      />
      <TextField
        label="To"
        type="date"
        name="to"
        defaultValue={value.to}
        required
        controlClassName={analyticsControl}
      />
      <SelectField
        label="Group by"
        name="granularity"
        defaultValue={value.granularity}
        controlClassName={analyticsControl}
      >
        <option value="day">Day</option>
        <option value="week">Week</option>
        <option value="month">Month</option>
      </SelectField>
      <button type="submit" className={button({ variant: 'primary' })}>
        Show
      </button>
    </form>
  )
}

const count = (value: number) => String(value)

/** A section whose one chart counts things per period (views, sales, reviews): its figures, then the chart. */
function CountsChartSection({
  chartTitle,
  points,
  series,
  ...section
}: Omit<ComponentProps<typeof AnalyticsSection>, 'children'> & {
  chartTitle: string
  points: readonly ({ period: string } & Record<string, string | number>)[]
  series: ChartSeries[]
}) {
  return (
    <AnalyticsSection {...section}>
      <AnalyticsChart title={chartTitle} rows={points.map((point) => ({ ...point }))} series={series} format={count} />
    </AnalyticsSection>
  )
}

export function AnalyticsView({
  report,
  csvHref,
  footer,
}: {
  report: AnalyticsReport
  csvHref: string
  footer?: ReactNode
}) {
  return (
    <div className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
      <p>
        <a className={button({ variant: 'outline', size: 'sm' })} href={csvHref} download>
          Download CSV
        </a>
      </p>

      <AnalyticsSection id="revenue" title="Revenue">
        <p data-testid="net-basis" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Net is after discounts, refunds and the platform fee, before card processing fees: Earnings takes those off
          what creators are paid.
        </p>
        {report.revenue.length === 0 ? (
          <EmptyState title="No sales in this period">Sales and refunds will show here per currency.</EmptyState>
        ) : (
          report.revenue.map((line) => {
            const money = (minor: number) => formatMoney(minor, line.currency)
            return (
              <div key={line.currency} className={css({ display: 'flex', flexDir: 'column', gap: '4' })}>
                <dl className={figureGrid} data-testid={`totals-${line.currency}`}>
                  {(
                    [
                      ['Gross', line.totals.grossMinor, line.previous.grossMinor],
                      ['Refunds', line.totals.refundMinor, line.previous.refundMinor],
                      ['Net', line.totals.netMinor, line.previous.netMinor],
                      ['Units sold', line.totals.units, line.previous.units],
                    ] as const
                  ).map(([label, value, previous]) => (
                    <div key={label}>
                      <dt className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                        {label} ({line.currency})
                      </dt>
                      <dd className={css({ fontSize: 'xl', fontWeight: 'bold', m: 0 })}>
                        {label === 'Units sold' ? value : money(value)}
                      </dd>
                      <dd className={css({ fontSize: 'xs', color: 'fg.muted', m: 0 })}>{change(value, previous)}</dd>
                    </div>
                  ))}
                </dl>
                <AnalyticsChart
                  title={`Revenue in ${line.currency}`}
                  rows={line.points.map((point) => ({
                    period: point.period,
                    gross: point.grossMinor,
                    discounts: point.discountMinor,
                    refunds: point.refundMinor,
                    fee: point.platformFeeMinor,
                    net: point.netMinor,
                  }))}
                  series={[
                    { key: 'gross', label: 'Gross', color: colorAt(0) },
                    { key: 'discounts', label: 'Discounts', color: colorAt(3) },
                    { key: 'refunds', label: 'Refunds', color: colorAt(1) },
                    { key: 'fee', label: 'Platform fee', color: colorAt(4) },
                    { key: 'net', label: 'Net', color: colorAt(2) },
                  ]}
                  format={money}
                />
                <AnalyticsChart
                  title={`Units sold in ${line.currency}`}
                  rows={line.points.map((point) => ({
                    period: point.period,
                    units: point.units,
                    refunds: point.refunds,
                  }))}
                  series={[
                    { key: 'units', label: 'Units sold', color: colorAt(0) },
                    { key: 'refunds', label: 'Refunded', color: colorAt(1) },
                  ]}
                  format={count}
                />
              </div>
            )
          })
        )}
      </AnalyticsSection>

      {report.channels ? (
        <AnalyticsSection
          id="channels"
          title="Units by channel"
          note="A gift, a bundle or a coupon counts first; else the way the buyer reached the course page: a catalogue search result, browsing the catalogue, or direct (anything else)."
        >
          <ScrollRegion label="Units by channel, table">
            <table className={tableStyle}>
              <thead>
                <tr>
                  <th scope="col">Direct</th>
                  <th scope="col">Search</th>
                  <th scope="col">Catalogue</th>
                  <th scope="col">Coupon</th>
                  <th scope="col">Bundle</th>
                  <th scope="col">Gift</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td>{report.channels.direct}</td>
                  <td>{report.channels.search}</td>
                  <td>{report.channels.catalogue}</td>
                  <td>{report.channels.coupon}</td>
                  <td>{report.channels.bundle}</td>
                  <td>{report.channels.gift}</td>
                </tr>
              </tbody>
            </table>
          </ScrollRegion>
        </AnalyticsSection>
      ) : null}

      {report.funnel ? (
        <CountsChartSection
          id="views-channels"
          title="Course page views by channel"
          note="How visitors reached the course page: a catalogue search result, browsing the catalogue, or direct (anything else)."
          summary={`${report.funnel.views.totals.direct} direct, ${report.funnel.views.totals.search} from search, ${report.funnel.views.totals.catalogue} from the catalogue`}
          summaryTestId="views-channels-totals"
          chartTitle="Views by channel"
          points={report.funnel.views.points}
          series={[
            { key: 'direct', label: 'Direct', color: colorAt(0) },
            { key: 'search', label: 'Search', color: colorAt(3) },
            { key: 'catalogue', label: 'Catalogue', color: colorAt(2) },
          ]}
        />
      ) : null}

      {report.funnel ? (
        <CountsChartSection
          id="funnel"
          title="Course page conversion"
          summaryTestId="funnel-totals"
          summary={
            <>
              {report.funnel.totals.views} views → {report.funnel.totals.cartAdds} added to cart →{' '}
              {report.funnel.totals.purchases} bought (
              {change(report.funnel.totals.views, report.funnel.previous.views)} in views)
            </>
          }
          chartTitle="Views, added to cart, bought"
          points={report.funnel.points}
          series={[
            { key: 'views', label: 'Views', color: colorAt(0) },
            { key: 'cartAdds', label: 'Added to cart', color: colorAt(3) },
            { key: 'purchases', label: 'Bought', color: colorAt(2) },
          ]}
        />
      ) : null}

      {report.ratings ? (
        <CountsChartSection
          id="ratings"
          title="Ratings over time"
          summaryTestId="ratings-totals"
          summary={
            <>
              {countOf(report.ratings.totals.reviews, 'review')}, average {report.ratings.totals.average} of 5 (
              {change(report.ratings.totals.reviews, report.ratings.previous.reviews)} in reviews)
            </>
          }
          chartTitle="Reviews and average stars"
          points={report.ratings.points}
          series={[
            { key: 'reviews', label: 'Reviews', color: colorAt(0) },
            { key: 'average', label: 'Average stars', color: colorAt(3) },
          ]}
        />
      ) : null}

      {report.refundReasons ? (
        <AnalyticsSection
          id="refund-reasons"
          title="Refunds and their reasons"
          summaryTestId="refund-reasons-totals"
          summary={
            <>
              {countOf(report.refundReasons.refunds, 'refunded sale')} (
              {change(report.refundReasons.refunds, report.refundReasons.previousRefunds)}). The buyer's reason when
              they asked for the refund, else the note staff wrote.
            </>
          }
        >
          <ReportTable
            rows={report.refundReasons.rows}
            empty="No refunds in this period"
            label="Refunds by reason, table"
            testId="refund-reasons-table"
            head={['Reason', 'Currency', 'Refunds', 'Amount']}
            rowKey={(row) => `${row.currency}-${row.reason}`}
            rowHead={(row) => row.reason || 'No reason given'}
            wrapRowHead
            cells={(row) => [row.currency, row.refunds, formatMoney(row.refundMinor, row.currency)]}
          />
        </AnalyticsSection>
      ) : null}

      <AnalyticsSection id="courses" title="Courses sold">
        <ReportTable
          rows={report.courses}
          empty="No course sold in this period"
          label="Courses sold, table"
          testId="courses-table"
          head={['Course', 'Currency', 'Units', 'Gross', 'Refunds', 'Net']}
          rowKey={(course) => `${course.courseId}-${course.currency}`}
          rowHead={(course) => course.title}
          cells={(course) => [
            course.currency,
            course.units,
            formatMoney(course.grossMinor, course.currency),
            formatMoney(course.refundMinor, course.currency),
            formatMoney(course.netMinor, course.currency),
          ]}
        />
      </AnalyticsSection>

      <AnalyticsSection
        id="learners"
        title="Learners"
        note="Learners who opened a lesson, and how far they got (share of lessons completed). Refreshed hourly."
      >
        <ReportTable
          rows={report.learners}
          empty="No learners yet"
          label="Learners per course"
          testId="learners-table"
          head={['Course', 'Started', ...(report.full ? ['25 %', '50 %', '75 %', 'Completed'] : [])]}
          rowKey={(row) => row.courseId}
          rowHead={(row) => row.title}
          cells={(row) => [row.started, ...(report.full ? [row.p25, row.p50, row.p75, row.completed] : [])]}
        />
      </AnalyticsSection>
      {footer}
    </div>
  )
}

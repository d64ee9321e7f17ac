// An analytics report as CSV: revenue per period and currency, then units by channel, the funnel, ratings, refunds
// by reason, the courses and the learners, and for staff the plans, services and creators panels; the same numbers as
// the page's tables (amounts in major units with their currency, never summed across currencies).
import type { StaffPanels } from '../analytics/staff.ts'
import type { AnalyticsReport } from './analytics.ts'
import { toCsv } from './creator-earnings-view.ts'

const decimal = (minor: number) => (minor / 100).toFixed(2)

export function analyticsCsv(report: AnalyticsReport, staff?: StaffPanels): string {
  const rows: (string | number)[][] = [
    ['Revenue', `${report.range.from} to ${report.range.to}`, report.range.granularity],
    ['Period', 'Currency', 'Gross', 'Discounts', 'Refunds', 'Platform fee', 'Net', 'Units sold', 'Refunded lines'],
  ]
  for (const line of report.revenue) {
    for (const point of line.points) {
      rows.push([
        point.period,
        line.currency,
        decimal(point.grossMinor),
        decimal(point.discountMinor),
        decimal(point.refundMinor),
        decimal(point.platformFeeMinor),
        decimal(point.netMinor),
        point.units,
        point.refunds,
      ])
    }
  }
  if (report.channels) {
    const { direct, search, catalogue, coupon, bundle, gift } = report.channels
    rows.push([], ['Channel', 'Units sold'])
    rows.push(['Direct', direct], ['Search', search], ['Catalogue', catalogue], ['Coupon', coupon])
    rows.push(['Bundle', bundle], ['Gift', gift])
  }
  if (report.funnel) {
    rows.push([], ['Course page', 'Views', 'Added to cart', 'Bought'])
    for (const point of report.funnel.points) rows.push([point.period, point.views, point.cartAdds, point.purchases])
    rows.push([], ['Course page views by channel', 'Direct', 'Search', 'Catalogue'])
    for (const point of report.funnel.views.points)
      rows.push([point.period, point.direct, point.search, point.catalogue])
  }
  if (report.ratings) {
    rows.push([], ['Ratings', 'Reviews', 'Average stars'])
    for (const point of report.ratings.points) rows.push([point.period, point.reviews, point.average])
  }
  if (report.refundReasons) {
    rows.push([], ['Refund reason', 'Currency', 'Refunds', 'Amount'])
    for (const row of report.refundReasons.rows) {
      rows.push([row.reason || 'No reason given', row.currency, row.refunds, decimal(row.refundMinor)])
    }
  }
  rows.push([], ['Course', 'Currency', 'Units sold', 'Net', 'Refunds'])
  for (const course of report.courses) {
    rows.push([course.title, course.currency, course.units, decimal(course.netMinor), decimal(course.refundMinor)])
  }
  rows.push([], ['Course', 'Learners started', '25 %', '50 %', '75 %', 'Completed'])
  for (const row of report.learners) {
    rows.push([row.title, row.started, row.p25 ?? '', row.p50 ?? '', row.p75 ?? '', row.completed ?? ''])
  }
  if (staff) rows.push(...staffCsvRows(staff))
  return toCsv(rows)
}

/** The staff panels' tables: plans, services, creators (per currency where there is money). */
function staffCsvRows(staff: StaffPanels): (string | number)[][] {
  const rows: (string | number)[][] = [[], ['MRR', 'Currency', 'MRR at the end', 'Previous period', 'Subscriptions']]
  for (const line of staff.plans.mrr) {
    rows.push(['', line.currency, decimal(line.mrrMinor), decimal(line.previousMrrMinor), line.subscriptions])
  }
  rows.push([], ['Plans', 'New', 'Churned', 'Trials converted'])
  for (const point of staff.plans.points) {
    rows.push([point.period, point.newSubscriptions, point.churned, point.trialsConverted])
  }
  rows.push([], ['Services', 'Orders', 'Delivered', 'Median hours to delivery', 'Overdue'])
  for (const point of staff.services.points) {
    rows.push([point.period, point.orders, point.delivered, point.medianHours ?? '', point.overdue])
  }
  rows.push([], ['Top creator', 'Currency', 'Sales', 'Net earnings'])
  for (const creator of staff.creators.top) {
    rows.push([creator.name, creator.currency, creator.sales, decimal(creator.netMinor)])
  }
  rows.push([], ['Creators', 'New creators'])
  for (const point of staff.creators.points) rows.push([point.period, point.newCreators])
  rows.push([], ['Payouts', 'Currency', 'Payouts', 'Amount'])
  for (const line of staff.creators.payouts) {
    for (const point of line.points) rows.push([point.period, line.currency, point.payouts, decimal(point.amountMinor)])
  }
  return rows
}

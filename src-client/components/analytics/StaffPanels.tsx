import type { RouterOutputs } from '#client/lib/types.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { AnalyticsChart } from './AnalyticsChart.tsx'
import { colorAt } from './AnalyticsChartDrawing.tsx'
import { AnalyticsSection } from './AnalyticsSection.tsx'
import { change } from './AnalyticsView.tsx'
import { ReportTable } from './ReportTable.tsx'

type Staff = RouterOutputs['analytics']['shop']['staff']

const figureGrid = css({
  display: 'grid',
  gridTemplateColumns: { base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
  gap: '3',
  m: 0,
})
const count = (value: number) => String(value)

function Figures({ items, testId }: { items: [label: string, value: string, note: string][]; testId: string }) {
  return (
    <dl className={figureGrid} data-testid={testId}>
      {items.map(([label, value, note]) => (
        <div key={label}>
          <dt className={css({ fontSize: 'sm', color: 'fg.muted' })}>{label}</dt>
          <dd className={css({ fontSize: 'xl', fontWeight: 'bold', m: 0 })}>{value}</dd>
          <dd className={css({ fontSize: 'xs', color: 'fg.muted', m: 0 })}>{note}</dd>
        </div>
      ))}
    </dl>
  )
}

const hours = (value: number | null) => (value === null ? '–' : `${value} h`)

export function StaffPanels({ staff }: { staff: Staff }) {
  const { plans, services, creators } = staff
  return (
    <>
      <AnalyticsSection
        id="plans"
        title="Plans"
        note="MRR at the end of the range: subscriptions out of their trial, an annual one at a twelfth of its price."
      >
        <Figures
          testId="plans-figures"
          items={[
            ...plans.mrr.map(
              (line) =>
                [
                  `MRR (${line.currency})`,
                  formatMoney(line.mrrMinor, line.currency),
                  change(line.mrrMinor, line.previousMrrMinor),
                ] as [string, string, string],
            ),
            [
              'New',
              String(plans.totals.newSubscriptions),
              change(plans.totals.newSubscriptions, plans.previous.newSubscriptions),
            ],
            ['Churned', String(plans.totals.churned), change(plans.totals.churned, plans.previous.churned)],
            [
              'Trials converted',
              String(plans.totals.trialsConverted),
              change(plans.totals.trialsConverted, plans.previous.trialsConverted),
            ],
          ]}
        />
        <AnalyticsChart
          title="Subscriptions: new, churned, trials converted"
          rows={plans.points.map((point) => ({ ...point }))}
          series={[
            { key: 'newSubscriptions', label: 'New', color: colorAt(0) },
            { key: 'churned', label: 'Churned', color: colorAt(1) },
            { key: 'trialsConverted', label: 'Trials converted', color: colorAt(2) },
          ]}
          format={count}
        />
      </AnalyticsSection>

      <AnalyticsSection
        id="services"
        title="Services"
        note="Time to delivery runs from the brief (or the order) to the delivery. Overdue: due in the period, not delivered by then, not cancelled."
      >
        <Figures
          testId="services-figures"
          items={[
            ['Orders', String(services.totals.orders), change(services.totals.orders, services.previous.orders)],
            [
              'Delivered',
              String(services.totals.delivered),
              change(services.totals.delivered, services.previous.delivered),
            ],
            [
              'Median time to delivery',
              hours(services.totals.medianHours),
              `previous period ${hours(services.previous.medianHours)}`,
            ],
            ['Overdue', String(services.totals.overdue), change(services.totals.overdue, services.previous.overdue)],
          ]}
        />
        <AnalyticsChart
          title="Service orders, deliveries and overdue"
          rows={services.points.map(({ medianHours: _median, ...point }) => point)}
          series={[
            { key: 'orders', label: 'Orders', color: colorAt(0) },
            { key: 'delivered', label: 'Delivered', color: colorAt(2) },
            { key: 'overdue', label: 'Overdue', color: colorAt(1) },
          ]}
          format={count}
        />
        <AnalyticsChart
          title="Median hours to delivery"
          rows={services.points.map((point) => ({ period: point.period, medianHours: point.medianHours ?? 0 }))}
          series={[{ key: 'medianHours', label: 'Median hours', color: colorAt(3) }]}
          format={count}
        />
      </AnalyticsSection>

      <AnalyticsSection id="creators" title="Creators">
        <Figures
          testId="creators-figures"
          items={[
            [
              'New creators',
              String(creators.totals.newCreators),
              change(creators.totals.newCreators, creators.previous.newCreators),
            ],
            ...creators.payouts.map(
              (line) =>
                [
                  `Paid out (${line.currency})`,
                  formatMoney(line.totals.amountMinor, line.currency),
                  change(line.totals.amountMinor, line.previous.amountMinor),
                ] as [string, string, string],
            ),
          ]}
        />
        <AnalyticsChart
          title="New creators"
          rows={creators.points.map((point) => ({ ...point }))}
          series={[{ key: 'newCreators', label: 'New creators', color: colorAt(0) }]}
          format={count}
        />
        {creators.payouts.map((line) => (
          <AnalyticsChart
            key={line.currency}
            title={`Payouts in ${line.currency}`}
            rows={line.points.map((point) => ({ period: point.period, amount: point.amountMinor }))}
            series={[{ key: 'amount', label: 'Paid out', color: colorAt(2) }]}
            format={(minor) => formatMoney(minor, line.currency)}
          />
        ))}
        <h3 className={css({ fontWeight: 'semibold' })}>Top creators by net earnings</h3>
        <ReportTable
          rows={creators.top}
          empty="No creator sales in this period"
          label="Top creators, table"
          testId="top-creators-table"
          head={['Creator', 'Currency', 'Sales', 'Net earnings']}
          rowKey={(row) => `${row.creatorId}-${row.currency}`}
          rowHead={(row) => row.name}
          cells={(row) => [row.currency, row.sales, formatMoney(row.netMinor, row.currency)]}
        />
      </AnalyticsSection>
    </>
  )
}

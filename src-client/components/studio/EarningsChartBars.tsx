// The bars of the Earnings chart, drawn with Recharts (decision 0040). Loaded lazily by EarningsChart.tsx so the
// library stays out of the initial bundle and out of the server render; the table beside it carries the same numbers
// for screen readers and keyboards, so the drawing itself is hidden from them.
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { formatMonth } from '#shared/dates.ts'
import { formatMoney } from '#shared/money.ts'

/** One month of the creator's totals, as the server sends them (earnings/statements.ts creatorMonthlyTotals). */
export type ChartMonth = RouterOutputs['earnings']['monthly']['series'][number]['months'][number]

export default function EarningsChartBars({ currency, months }: { currency: string; months: ChartMonth[] }) {
  const data = months.map((month) => ({
    month: month.month,
    Net: month.netMinor / 100,
    Refunded: month.refundedMinor / 100,
    'Paid out': month.paidOutMinor / 100,
  }))
  return (
    <div aria-hidden="true" style={{ width: '100%', height: 260 }}>
      <ResponsiveContainer width="100%" height="100%">
        {/* No accessibility layer: it makes the hidden drawing a Tab stop that announces nothing (as the analytics chart). */}
        <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          {/* 'Jan 2026': a two-digit year and month ('26-01') read as a day. */}
          <XAxis dataKey="month" tickFormatter={(value: string) => formatMonth(value)} fontSize={12} />
          <YAxis fontSize={12} width={56} />
          <Tooltip
            labelFormatter={(label) => formatMonth(String(label), 'long')}
            formatter={(value) => formatMoney(Math.round(Number(value) * 100), currency)}
          />
          <Legend />
          <Bar dataKey="Net" fill="#4f46e5" />
          <Bar dataKey="Refunded" fill="#f97316" />
          <Bar dataKey="Paid out" fill="#16a34a" />
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}

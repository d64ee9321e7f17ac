// The drawing of an analytics chart (Recharts, decision 0040): loaded lazily by AnalyticsChart.tsx so the library
// stays out of the initial bundle and the server render. The table beside it carries the same numbers for screen
// readers and keyboards, so the drawing is hidden from them.
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'

export interface ChartSeries {
  key: string
  label: string
  color: string
}

const COLORS = ['#4f46e5', '#f97316', '#16a34a', '#0ea5e9', '#a855f7', '#dc2626']
export const colorAt = (index: number) => COLORS[index % COLORS.length] as string

export default function AnalyticsChartDrawing({
  rows,
  series,
  format,
}: {
  rows: Record<string, string | number>[]
  series: ChartSeries[]
  format: (value: number) => string
}) {
  return (
    <div aria-hidden="true" style={{ width: '100%', height: 260 }}>
      <ResponsiveContainer width="100%" height="100%">
        {/* No keyboard layer: the drawing is hidden from assistive technology, the table beside it is not. */}
        <BarChart accessibilityLayer={false} data={rows} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="period" fontSize={12} />
          <YAxis fontSize={12} width={64} tickFormatter={(value: number) => format(value)} />
          <Tooltip formatter={(value) => format(Number(value))} />
          <Legend />
          {series.map((line) => (
            <Bar key={line.key} dataKey={line.key} name={line.label} fill={line.color} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}

// The parts of the earnings a creator's studio page and a school's finance member's page both show: the balances in
// each currency and the monthly statements to download (a member's links name the school; the server checks the role).
import type { ReactNode } from 'react'
import { EmptyState } from '#client/components/ui/states.tsx'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'

const figures = css({
  display: 'grid',
  gridTemplateColumns: { base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
  gap: '3',
  m: 0,
})
const figureLabel = css({ fontSize: 'sm', color: 'fg.muted' })
const figureValue = css({ fontSize: 'xl', fontWeight: 'bold', m: 0 })

interface Balance {
  currency: string
  pendingMinor: number
  availableMinor: number
  paidOutMinor: number
  owedMinor: number
}

/** One row of figures per currency; `empty` says where the first sale's share will appear. */
export function BalanceFigures({ balances, empty }: { balances: readonly Balance[]; empty: ReactNode }) {
  if (balances.length === 0) return <EmptyState title="No earnings yet">{empty}</EmptyState>
  return balances.map((balance) => (
    <dl key={balance.currency} className={figures} aria-label={`Balances in ${balance.currency}`}>
      <Figure label={`Pending (${balance.currency})`} value={formatMoney(balance.pendingMinor, balance.currency)} />
      <Figure
        label={`Available (${balance.currency})`}
        value={formatMoney(Math.max(0, balance.availableMinor), balance.currency)}
      />
      <Figure label={`Paid out (${balance.currency})`} value={formatMoney(balance.paidOutMinor, balance.currency)} />
      <Figure
        label={`Owed from refunds (${balance.currency})`}
        value={formatMoney(balance.owedMinor, balance.currency)}
      />
    </dl>
  ))
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className={figureLabel}>{label}</dt>
      <dd className={figureValue}>{value}</dd>
    </div>
  )
}

/** The months with a statement, each as CSV and PDF; a school member's links name the school. */
export function StatementList({ months, schoolId }: { months: readonly string[]; schoolId?: string }) {
  if (months.length === 0) return <p>No statements yet: a month with earnings gets one.</p>
  const school = schoolId ? `?school=${schoolId}` : ''
  return (
    <ul className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
      {months.map((month) => (
        <li key={month} className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'center' })}>
          <span className={css({ fontWeight: 'semibold', minW: '20' })}>{month}</span>
          <a href={`/api/studio/statements/${month}.csv${school}`} download>
            Statement {month} (CSV)
          </a>
          <a href={`/api/studio/statements/${month}.pdf${school}`} download>
            Statement {month} (PDF)
          </a>
        </li>
      ))}
    </ul>
  )
}

import type { RouterOutputs } from '#client/lib/types.ts'
import { css, cx } from '#styled-system/css'
import { raisedCard } from '../ui/card.ts'
import { Icon } from '../ui/icons.tsx'
import { ScrollRegion, stickyFirstColumn } from '../ui/ScrollRegion.tsx'

type Row = RouterOutputs['plans']['list']['comparison'][number]

function Cell({ value }: { value: boolean | string }) {
  if (value === true) return <Icon name="check" label="Included" className={css({ color: 'success', mx: 'auto' })} />
  if (value === false)
    return <Icon name="close" label="Not included" className={css({ color: 'fg.muted', mx: 'auto' })} />
  return <>{value}</>
}

/**
 * The starter, professional and enterprise columns (spec §2 Pricing), headed by the names of the plans they compare
 * (`planNames`, in the plan cards' order: Basic, Pro, Enterprise), so the table names what the cards above it sell.
 */
export function ComparisonTable({ rows, planNames }: { rows: Row[]; planNames: readonly string[] }) {
  const th = css({ p: '3', textAlign: 'center', fontWeight: 'semibold' })
  return (
    <ScrollRegion label="Plan comparison" className={raisedCard}>
      <table className={cx(stickyFirstColumn, css({ w: 'full', borderCollapse: 'collapse', fontSize: 'sm' }))}>
        <caption className={css({ srOnly: true })}>Plan comparison</caption>
        <thead className={css({ bg: 'brand.50' })}>
          <tr>
            <th scope="col" className={css({ p: '3', textAlign: 'left', bg: 'brand.50!' })}>
              Feature
            </th>
            {planNames.map((name) => (
              <th key={name} scope="col" className={th}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name} className={css({ borderTopWidth: '1px', borderColor: 'line' })}>
              <th scope="row" className={css({ p: '3', textAlign: 'left', fontWeight: 'medium' })}>
                {row.name}
              </th>
              {[row.starter, row.professional, row.enterprise].map((value, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the three fixed columns
                <td key={index} className={css({ p: '3', textAlign: 'center' })}>
                  <Cell value={value} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  )
}

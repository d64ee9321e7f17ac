// What a plan or a service package includes: one line per item, each after a check mark.
import { css } from '#styled-system/css'
import { Icon } from './icons.tsx'

export function CheckList({ items }: { items: readonly string[] }) {
  return (
    <ul className={css({ display: 'grid', gap: '2', fontSize: 'sm', flex: 1 })}>
      {items.map((item) => (
        <li key={item} className={css({ display: 'flex', gap: '2' })}>
          <Icon name="check" size={16} className={css({ color: 'success', flexShrink: 0, mt: '0.5' })} /> {item}
        </li>
      ))}
    </ul>
  )
}

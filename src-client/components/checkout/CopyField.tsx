import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { useCopy } from '../ui/use-copy.ts'

/** A label, a value and a copy button that shows 'Copied' for 2 s (spec §9). */
export function CopyField({ label, value }: { label: string; value: string }) {
  const { copied, copy } = useCopy()
  return (
    <div
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: '3',
        py: '2',
        borderBottomWidth: '1px',
        borderColor: 'line',
      })}
    >
      <dt className={css({ w: '40', fontSize: 'sm', color: 'fg.muted' })}>{label}</dt>
      <dd className={css({ flex: 1, fontFamily: 'mono', fontWeight: 'semibold' })}>{value}</dd>
      <button
        type="button"
        className={button({ variant: 'ghost', size: 'sm' })}
        onClick={() => void copy(value)}
        aria-label={`Copy ${label}`}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  )
}

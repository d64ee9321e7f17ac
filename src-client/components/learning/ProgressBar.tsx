// A course's completion as a bar with its percentage (an accessible progressbar).
import { css } from '#styled-system/css'

export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '2', mt: '2' })}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className={css({ flex: 1, h: '2', bg: 'line', borderRadius: 'full', overflow: 'hidden' })}
      >
        <div className={css({ h: 'full', bg: 'accent', borderRadius: 'full' })} style={{ width: `${percent}%` }} />
      </div>
      <span className={css({ fontSize: 'xs', color: 'fg.muted', fontVariantNumeric: 'tabular-nums' })}>{percent}%</span>
    </div>
  )
}

import { useEffect, useState } from 'react'
import { PAYMENT_MESSAGES } from '../../../src-shared/cart.ts'
import { COPY_INDICATOR_MS } from '../../../src-shared/constants.ts'
import { css } from '../../../styled-system/css'
import { button } from '../ui/button.ts'
import { notify } from '../ui/toaster.tsx'

/** A label, a value and a copy button that shows 'Copied' for 2 s (spec §9). */
export function CopyField({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), COPY_INDICATOR_MS)
    return () => clearTimeout(timer)
  }, [copied])

  async function copy() {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(true)
    } catch {
      notify('error', PAYMENT_MESSAGES.copyFailed)
    }
  }
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
        onClick={() => void copy()}
        aria-label={`Copy ${label}`}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  )
}

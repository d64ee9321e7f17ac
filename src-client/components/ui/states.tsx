// Loading, empty and error states shared by every screen.
import type { ReactNode } from 'react'
import { errorMessage, isServiceUnavailable } from '#client/lib/errors.ts'
import { OUTAGE } from '#shared/outage.ts'
import { css } from '#styled-system/css'
import { button } from './button.ts'

const centred = css({ textAlign: 'center', py: '12', px: '4', color: 'fg.muted' })

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <span role="status" aria-label={label} className={css({ display: 'inline-flex', alignItems: 'center', gap: '2' })}>
      <span
        aria-hidden
        className={css({
          w: '5',
          h: '5',
          borderRadius: 'full',
          borderWidth: '2px',
          borderColor: 'brand.200',
          borderTopColor: 'accent',
          animation: 'spin 0.8s linear infinite',
        })}
      />
    </span>
  )
}

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className={centred} aria-busy="true">
      <Spinner label={label} />
      <p className={css({ mt: '2' })}>{label}</p>
    </div>
  )
}

/** A failure with the server's message; an outage says so in its own words whatever the screen's title. */
export function ErrorState({
  title = 'Something went wrong',
  error,
  message,
  onRetry,
}: {
  title?: string
  error?: unknown
  /** Said instead of the error's own message. */
  message?: string
  onRetry?: () => void
}) {
  const outage = isServiceUnavailable(error)
  return (
    <div role="alert" className={centred} data-outage={outage || undefined}>
      <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', color: 'fg' })}>{outage ? OUTAGE.title : title}</h2>
      {message || error ? <p className={css({ mt: '1' })}>{message ?? errorMessage(error)}</p> : null}
      {onRetry ? (
        <button
          type="button"
          className={`${button({ variant: 'outline', size: 'sm' })} ${css({ mt: '4' })}`}
          onClick={onRetry}
        >
          Try Again
        </button>
      ) : null}
    </div>
  )
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={centred}>
      <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', color: 'fg' })}>{title}</h2>
      {children}
    </div>
  )
}

// Dates in the visitor's locale and time zone, without a hydration mismatch: the server cannot know either, so the
// server-rendered HTML and the hydrating render both format in en-US, UTC; the visitor's own format follows right
// after hydration (and at once on pages rendered in the browser).
import { useHydrated } from '@tanstack/react-router'
import { longDateUtc } from '#shared/numbers.ts'

const LONG_DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric' }

export function useDateFormat() {
  const hydrated = useHydrated()
  return (iso: string, options: Intl.DateTimeFormatOptions = LONG_DATE) =>
    hydrated
      ? new Date(iso).toLocaleDateString(undefined, options)
      : options === LONG_DATE
        ? longDateUtc(iso) // the same text without Intl, which is slow to start on a phone (numbers.ts)
        : new Date(iso).toLocaleDateString('en-US', { ...options, timeZone: 'UTC' })
}

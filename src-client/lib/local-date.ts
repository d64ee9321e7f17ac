// formatDate's one variant (src-shared/dates.ts, decision 0095): a public catalogue page's day ("Last updated", a
// review's) in the visitor's own locale and time zone, without a hydration mismatch. The server cannot know either, so
// the server-rendered HTML and the hydrating render both write the day in en-US, UTC; the visitor's own format follows
// right after hydration (and at once on pages rendered in the browser). Anything else is formatDate's.
import { useHydrated } from '@tanstack/react-router'
import { longDateUtc } from '#shared/numbers.ts'

const LONG_DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric' }

/** A function writing a day: "December 1, 2026" until hydration, then e.g. "1. Dezember 2026" for a German reader. */
export function useDateFormat() {
  const hydrated = useHydrated()
  return (iso: string) => (hydrated ? new Date(iso).toLocaleDateString(undefined, LONG_DATE) : longDateUtc(iso)) // the same text without Intl, which is slow to start on a phone (numbers.ts)
}

import { countOf } from '#client/lib/format.ts'
import { formatDate } from '#shared/dates.ts'

/** 'Just now', '5 minutes ago', '3 hours ago', '2 days ago', else the date; 'Never' without a session. */
export function lastActive(iso: string | null, now = Date.now()): string {
  if (!iso) return 'Never'
  const minutes = Math.floor((now - new Date(iso).getTime()) / 60_000)
  if (minutes < 5) return 'Just now'
  if (minutes < 60) return `${countOf(minutes, 'minute')} ago`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${countOf(hours, 'hour')} ago`
  const days = Math.floor(hours / 24)
  if (days < 30) return `${countOf(days, 'day')} ago`
  return formatDate(iso, 'medium')
}

// Due dates count business days (Monday to Friday, UTC) from the brief's submission: waiting for the brief does
// not count, and neither do weekends.

export function addBusinessDays(start: Date, days: number): Date {
  const date = new Date(start)
  let left = days
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1)
    const weekday = date.getUTCDay()
    if (weekday !== 0 && weekday !== 6) left -= 1
  }
  return date
}

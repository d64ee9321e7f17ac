// Display formats shared by the shop and the admin (money formatting lives in src-shared/money.ts).

/** 150 → '2h 30m', 120 → '2h', 45 → '45m'. */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  if (hours === 0) return `${rest}m`
  return rest === 0 ? `${hours}h` : `${hours}h ${rest}m`
}

/** 1 → '1 lesson', 4 → '4 lessons' (an English count; `plural` when it is not the singular plus s). */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`
}

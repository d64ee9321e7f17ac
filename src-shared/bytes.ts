// Sizes as people read them: "850 KB", "12.4 MB", "2.1 GB" (binary units, as the plans' "10 GB" of storage are).
export function formatBytes(bytes: number): string {
  const KB = 1024
  const MB = KB * 1024
  const GB = MB * 1024
  if (bytes >= GB) return `${trim(bytes / GB)} GB`
  if (bytes >= MB) return `${trim(bytes / MB)} MB`
  return `${Math.max(bytes > 0 ? 1 : 0, Math.round(bytes / KB))} KB`
}

const trim = (value: number) => (value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, ''))

/** "1 h 2 min", "3 min 5 s", "40 s": a duration or a time left. */
export function formatSeconds(total: number): string {
  const seconds = Math.max(0, Math.round(total))
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  if (hours > 0) return `${hours} h ${minutes} min`
  if (minutes > 0) return `${minutes} min ${seconds % 60} s`
  return `${seconds} s`
}

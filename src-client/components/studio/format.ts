// How the studio writes plan counts: "3 of 5 published courses", "2.1 GB of 10 GB video".
const GB = 1024 ** 3

export function formatStorage(bytes: number): string {
  if (bytes >= GB) return `${Number((bytes / GB).toFixed(1))} GB`
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MB`
  return bytes === 0 ? '0 GB' : `${Math.max(1, Math.round(bytes / 1024))} KB`
}

export function ofLimit(used: string | number, limit: string | number | null, unit: string): string {
  return limit === null ? `${used} ${unit} (unlimited)` : `${used} of ${limit} ${unit}`
}

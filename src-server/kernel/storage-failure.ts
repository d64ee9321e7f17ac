// File storage (the bucket, or the disk) failing: no answer, a refusal, a 5xx, a full disk. The storage adapters throw
// this with the detail for the log (the bucket's code, the key); the error mapping answers 503 with Retry-After and one
// sentence of ours, as for the database (db-unavailable.ts): the request was fine, and trying again shortly may work.
// A missing object is not a failure: each adapter keeps its own answer for that (null, a 404).

export class StorageFailure extends Error {
  override readonly name = 'StorageFailure'
}

/** True when the error or one of its causes is a storage failure (tRPC and our own errors keep it as `cause`). */
export function isStorageFailure(error: unknown): boolean {
  const seen = new Set<unknown>()
  for (let current = error; current && typeof current === 'object' && !seen.has(current); ) {
    if (current instanceof StorageFailure) return true
    seen.add(current)
    current = (current as { cause?: unknown }).cause
  }
  return false
}

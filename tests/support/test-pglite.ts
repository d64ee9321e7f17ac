// PGlite as the tests open it: every test file opens its own copy of one template (db.ts, setup-pglite.ts), so
// opening must be cheap.
import { type DatabaseHandle, type DatabaseOptions, openPglite } from '../../src-server/kernel/db.ts'

/**
 * A 16MB buffer pool instead of PostgreSQL's 128MB, and 1 MB WAL segments instead of 16 MB (kernel/db.ts
 * `pgliteTuning`). The template's dump is 47 MB instead of 68 MB (the 21 MB were preallocated WAL, zeros). Opening a
 * copy took 0.5 s instead of 1.2–1.5 s alone (0.86 s with the small pool only), and 1.5–2 s instead of 4–6 s beside the
 * end-to-end run, with 40–60 thousand page faults instead of 115–195 thousand. Neither changes what SQL does; the tests'
 * data fits the pool many times over.
 */
export function openTestPglite(options: DatabaseOptions = {}): Promise<DatabaseHandle> {
  return openPglite({ ...options, pgliteTuning: { sharedBuffers: '16MB', walSegmentMb: 1 } })
}

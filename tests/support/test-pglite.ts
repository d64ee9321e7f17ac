// PGlite as the tests open it: every test file opens its own copy of one template (db.ts, setup-pglite.ts), so
// opening must be cheap.
import { type DatabaseHandle, type DatabaseOptions, openPglite } from '../../src-server/kernel/db.ts'

/**
 * A 16MB buffer pool instead of PostgreSQL's 128MB, and 1 MB WAL segments instead of 16 MB (kernel/db.ts
 * `pgliteTuning`): the template's dump is 47 MB instead of 68 MB, mostly a preallocated WAL segment of zeros, and opening
 * a copy of it took 0.5 s instead of 1.2–1.5 s alone (1.5–2 s instead of 4–6 s beside the end-to-end run, with 40–60
 * thousand page faults instead of 115–195 thousand). Neither changes what SQL does; the tests' data fits the pool many
 * times over.
 */
export function openTestPglite(options: DatabaseOptions = {}): Promise<DatabaseHandle> {
  return openPglite({ ...options, pgliteTuning: { sharedBuffers: '16MB', walSegmentMb: 1 } })
}

// Ending every way an account is in, or on its way in, at once: its sessions, its half-finished log-ins (waiting for
// their code) and its unused school-domain hand-off codes. Under the account's sign-in lock (decision 0152): a
// sign-in under way finishes first and what it made ends here; the next waits for the caller's commit and sees the
// rule that made the caller end them (a school's required sign-on, a suspension) — or, after a plain sign-out
// everywhere, simply signs in again.
import type { DB } from '../kernel/db.ts'
import { endHandoffsOf } from './handoffs.ts'
import { endPendingLoginsOf } from './pending-login.ts'
import { invalidateUserSessions } from './session.ts'
import { lockAccountAgainstSignIns } from './sign-in-lock.ts'

export async function endAllSignIns(trx: DB, userId: string): Promise<void> {
  await lockAccountAgainstSignIns(trx, userId)
  await invalidateUserSessions(trx, userId)
  await endPendingLoginsOf(trx, userId)
  await endHandoffsOf(trx, userId)
}

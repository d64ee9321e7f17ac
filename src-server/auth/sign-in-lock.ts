// An account's sign-ins and the end of its sessions run one at a time (decision 0152). A rule that refuses a way in
// (a school's required single sign-on) is checked by the sign-in, and enforced on what came before by ending the
// account's sessions when the rule starts to hold. Without a common lock the two could miss each other: a sign-in that
// checked before the rule's transaction committed made its session after that transaction had ended the others, and
// the session outlived the rule.
import { type DB, lockKeyForTransaction, lockKeySharedForTransaction } from '../kernel/db.ts'

const signInKey = (userId: string) => `sign-in:${userId}`

/** Taken by a sign-in, to its transaction's end, before it checks the rules and makes its session or pending log-in:
 * shared, so an account's sign-ins do not wait for one another, only for the end of its sessions. */
export function lockAccountForSignIn(trx: DB, userId: string): Promise<void> {
  return lockKeySharedForTransaction(trx, signInKey(userId))
}

/** Taken before ending an account's sessions because a rule now refuses its way in: waits for the sign-ins under way
 * (their sessions are then there to end), and holds the next until the rule is committed (they then see it). */
export function lockAccountAgainstSignIns(trx: DB, userId: string): Promise<void> {
  return lockKeyForTransaction(trx, signInKey(userId))
}

// An account staff suspended (decision 0160): users.suspended_at and the reason the person was told. The sign-in
// (auth/login.ts startSession, auth/sign-in.ts finishFirstStep), the session check (auth/session.ts) and the API key
// check (flows/school-api-keys.ts) refuse it, the payout run holds its payouts (flows/creator-payouts.ts);
// flows/account-suspension.ts sets and lifts it.
import { AUTH_MESSAGES } from '../../src-shared/auth.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'

/** The refusal of a sign-in to a suspended account; the OAuth and school sign-ins turn it into their `suspended` code. */
export class AccountSuspended extends DomainError {
  constructor() {
    super('forbidden', AUTH_MESSAGES.accountSuspended)
  }
}

/** Since when and why the account is suspended, or null. */
export async function suspensionOf(db: DB, userId: string): Promise<{ since: Date; reason: string } | null> {
  const row = await db
    .selectFrom('users')
    .select(['suspended_at', 'suspension_reason'])
    .where('id', '=', userId)
    .executeTakeFirst()
  return row?.suspended_at ? { since: row.suspended_at, reason: row.suspension_reason ?? '' } : null
}

/** The accounts suspended now (few: an index holds just them). */
export async function suspendedAccountIds(db: DB): Promise<Set<string>> {
  const rows = await db.selectFrom('users').select('id').where('suspended_at', 'is not', null).execute()
  return new Set(rows.map((row) => row.id))
}

/** Refuses a way in to a suspended account. */
export async function assertNotSuspended(db: DB, userId: string): Promise<void> {
  if (await suspensionOf(db, userId)) throw new AccountSuspended()
}

/** Suspends the account; false when it already was (nothing changes). */
export async function suspend(db: DB, userId: string, by: { staffId: string; reason: string; at: Date }) {
  const result = await db
    .updateTable('users')
    .set({ suspended_at: by.at, suspended_by: by.staffId, suspension_reason: by.reason })
    .where('id', '=', userId)
    .where('suspended_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** Lifts the suspension; false when there was none. */
export async function lift(db: DB, userId: string) {
  const result = await db
    .updateTable('users')
    .set({ suspended_at: null, suspended_by: null, suspension_reason: null })
    .where('id', '=', userId)
    .where('suspended_at', 'is not', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

// Account deletion requests (issue 28): privacy/ owns account_deletions. A request waits out its cool-off; the
// deletion job reminds the person the day before, then erases the account (flows/account-deletion.ts) and marks the
// row erased. Cancelling removes the row. One row per person (the primary key): asking twice keeps the first date.
import { ACCOUNT_DELETION_COOL_OFF_MS, ACCOUNT_DELETION_REMINDER_MS } from '../../src-shared/retention.ts'
import { type DB, lockKeyForTransaction, lockKeySharedForTransaction } from '../kernel/db.ts'

export interface DeletionRow {
  requested_at: Date
  erase_after: Date
  erased_at: Date | null
}

/** Schedules the erasure; a scheduled one is answered unchanged (the cool-off does not restart). */
export async function scheduleDeletion(
  db: DB,
  userId: string,
  requestedBy: string | null,
  now: Date,
): Promise<DeletionRow & { created: boolean }> {
  const inserted = await db
    .insertInto('account_deletions')
    .values({
      user_id: userId,
      requested_by: requestedBy,
      requested_at: now,
      erase_after: new Date(now.getTime() + ACCOUNT_DELETION_COOL_OFF_MS),
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .returning(['requested_at', 'erase_after', 'erased_at'])
    .executeTakeFirst()
  if (inserted) return { ...inserted, created: true }
  const row = await deletionOf(db, userId)
  if (!row) throw new Error('account_deletions row vanished')
  return { ...row, created: false }
}

export function deletionOf(db: DB, userId: string): Promise<DeletionRow | undefined> {
  return db
    .selectFrom('account_deletions')
    .select(['requested_at', 'erase_after', 'erased_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

/** Cancels a scheduled (not yet erased) deletion; false when there was none. */
export async function cancelDeletion(db: DB, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('account_deletions')
    .where('user_id', '=', userId)
    .where('erased_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/** Scheduled deletions whose reminder is due (a day before the end), each claimed once. */
export function claimDueReminders(db: DB, now: Date) {
  return db
    .updateTable('account_deletions')
    .set({ reminded_at: now })
    .where('erased_at', 'is', null)
    .where('reminded_at', 'is', null)
    .where('erase_after', '<=', new Date(now.getTime() + ACCOUNT_DELETION_REMINDER_MS))
    .where('erase_after', '>', now)
    .returning(['user_id', 'erase_after'])
    .execute()
}

/** People whose cool-off has ended and who are not erased yet (oldest first). */
export async function dueErasures(db: DB, now: Date, limit = 20): Promise<string[]> {
  const rows = await db
    .selectFrom('account_deletions')
    .select('user_id')
    .where('erased_at', 'is', null)
    .where('erase_after', '<=', now)
    .orderBy('erase_after')
    .limit(limit)
    .execute()
  return rows.map((row) => row.user_id)
}

/** Locks the person's row for the erasure's transaction; null when it is gone, not due or already erased. */
export function lockDueDeletion(db: DB, userId: string, now: Date) {
  return db
    .selectFrom('account_deletions')
    .select(['user_id', 'erase_after'])
    .where('user_id', '=', userId)
    .where('erased_at', 'is', null)
    .where('erase_after', '<=', now)
    .forUpdate()
    .executeTakeFirst()
}

/** Which of these accounts were erased: their courses are the house's, so no money is credited to them. */
export async function erasedAmong(db: DB, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set()
  const rows = await db
    .selectFrom('account_deletions')
    .select('user_id')
    .where('user_id', 'in', userIds)
    .where('erased_at', 'is not', null)
    .execute()
  return new Set(rows.map((row) => row.user_id))
}

const erasureKey = (userId: string) => `account-erasure:${userId}`

/**
 * A sale about to credit these people holds them against their erasure until it commits (a shared lock, in id order:
 * sales never wait for one another). Without it a sale and the erasure each read the other's state from before it:
 * the erasure found no earnings yet, the sale no erasure yet, and an erased account was credited.
 */
export async function holdAgainstErasure(trx: DB, userIds: readonly string[]): Promise<void> {
  for (const userId of [...new Set(userIds)].sort()) await lockKeySharedForTransaction(trx, erasureKey(userId))
}

/** The erasure takes the person alone: it waits for the sales crediting them, and later ones wait for it. */
export async function lockForErasure(trx: DB, userId: string): Promise<void> {
  await lockKeyForTransaction(trx, erasureKey(userId))
}

export async function markErased(db: DB, userId: string, now: Date) {
  await db.updateTable('account_deletions').set({ erased_at: now }).where('user_id', '=', userId).execute()
}

/** Erased people whose Stripe customers are still to be deleted at Stripe (oldest first; decision 0066). */
export async function dueStripeDeletions(db: DB, limit = 20): Promise<string[]> {
  const rows = await db
    .selectFrom('account_deletions')
    .select('user_id')
    .where('erased_at', 'is not', null)
    .where('stripe_deleted_at', 'is', null)
    .orderBy('erased_at')
    .limit(limit)
    .execute()
  return rows.map((row) => row.user_id)
}

export async function markStripeDeleted(db: DB, userId: string, now: Date) {
  await db
    .updateTable('account_deletions')
    .set({ stripe_deleted_at: now })
    .where('user_id', '=', userId)
    .where('stripe_deleted_at', 'is', null)
    .execute()
}

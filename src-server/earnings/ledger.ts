// The double-entry ledger of creators' money: every fact (a sale, a refund, a hold released, a payout…) is one
// balanced transaction of signed entries, appended once under a key and never edited. The database refuses an
// update, a delete and an unbalanced transaction (migration 2026_11_29_0200); this module refuses them first.
import type { LedgerAccount, LedgerKind } from '../../db/types.ts'
import type { Currency } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'

export interface LedgerEntry {
  account: LedgerAccount
  /** Set on the creator_* accounts only. */
  creatorId?: string
  currency: Currency
  /** Positive: owed to the creator on creator_* accounts; the counter-accounts take the other side. */
  amountMinor: number
}

export interface Posting {
  /** Unique per fact, e.g. `sale:<order item>`: posting the same key again changes nothing. */
  key: string
  kind: LedgerKind
  source: string
  memo?: string
  entries: LedgerEntry[]
}

export function assertBalanced(entries: readonly LedgerEntry[]): void {
  const sums = new Map<string, number>()
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.amountMinor)) throw new Error(`ledger: not a whole amount ${entry.amountMinor}`)
    if (entry.account.startsWith('creator_') !== Boolean(entry.creatorId)) {
      throw new Error(`ledger: ${entry.account} ${entry.creatorId ? 'takes no' : 'needs a'} creator`)
    }
    sums.set(entry.currency, (sums.get(entry.currency) ?? 0) + entry.amountMinor)
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0) throw new Error(`ledger: entries in ${currency} sum to ${sum}, not 0`)
  }
}

/** Appends the posting in the caller's transaction; false when its key was posted before (nothing changes). */
export async function post(db: DB, posting: Posting): Promise<boolean> {
  const entries = posting.entries.filter((entry) => entry.amountMinor !== 0)
  assertBalanced(entries)
  const row = await db
    .insertInto('ledger_transactions')
    .values({ key: posting.key, kind: posting.kind, source: posting.source, memo: posting.memo ?? '' })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!row) return false
  if (entries.length) {
    await db
      .insertInto('ledger_entries')
      .values(
        entries.map((entry) => ({
          transaction_id: row.id,
          account: entry.account,
          creator_id: entry.creatorId ?? null,
          currency: entry.currency,
          amount_minor: entry.amountMinor,
        })),
      )
      .execute()
  }
  return true
}

/** Whether a fact with this key was posted. */
export async function isPosted(db: DB, key: string): Promise<boolean> {
  const row = await db.selectFrom('ledger_transactions').select('id').where('key', '=', key).executeTakeFirst()
  return row !== undefined
}

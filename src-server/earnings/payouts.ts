// Monthly payouts of creators' available balances. A payout row per creator, month and currency is the claim: two
// workers cannot both create it, only one can move it to 'sending', and it keeps the Stripe transfer's idempotency
// key, so a retry after a lost answer (or a crash mid-call) is the same transfer. The ledger moves the
// amount from available to paid out only when Stripe confirms the transfer. A try Stripe refused leaves the payout
// 'failed' (retried up to a limit, then given up for staff); a try with no answer, which Stripe may have made, leaves
// it 'unconfirmed': still claimed and claimable by every later run, which looks the transfer up before sending again.
// A payout not yet made is lowered to what its creator still has before each send (decision 0127).

import { sql } from 'kysely'
import type { Currency } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { post } from './ledger.ts'

/** A payout 'sending' longer than this is taken to have died mid-call and may be claimed again (same key). */
export const STALE_SENDING_MS = 10 * 60_000

export interface PayoutCandidate {
  creatorId: string
  currency: Currency
  availableMinor: number
  stripeAccountId: string
}

/**
 * What each creator with a ready account has free to pay per currency: the available balance less what their earlier
 * payouts not yet sent already claim (pending, sending, unconfirmed, or failed and still to be retried: the ledger
 * moves only when Stripe confirms). Without that, a payout failed one month and retried in the next month's run would
 * be paid twice: once as itself and once inside the new month's payout of the whole balance. Below zero when a dispute
 * or a refund took back part of what those payouts claim. One statement, so the balance and the claims are read at the
 * same moment. `creatorId` narrows it to one creator.
 */
export async function payoutBalances(
  db: DB,
  maxAttempts: number,
  only?: { creatorId: string; currency: Currency },
): Promise<PayoutCandidate[]> {
  let query = db
    .selectFrom('ledger_entries as e')
    .innerJoin('creator_payout_accounts as a', 'a.creator_id', 'e.creator_id')
    .select([
      'e.creator_id',
      'e.currency',
      'a.stripe_account_id',
      (eb) => eb.fn.sum<string | number>('e.amount_minor').as('available'),
      (eb) =>
        eb
          .selectFrom('creator_payouts as p')
          .select((inner) => inner.fn.coalesce(inner.fn.sum<string | number>('p.amount_minor'), inner.lit(0)).as('n'))
          .whereRef('p.creator_id', '=', 'e.creator_id')
          .whereRef('p.currency', '=', 'e.currency')
          .where((inner) =>
            inner.or([
              inner('p.status', 'in', ['pending', 'sending', 'unconfirmed']),
              inner.and([inner('p.status', '=', 'failed'), inner('p.attempts', '<', maxAttempts)]),
            ]),
          )
          .as('claimed'),
    ])
    .where('e.account', '=', 'creator_available')
    .where('a.payouts_enabled', '=', true)
  if (only) query = query.where('e.creator_id', '=', only.creatorId).where('e.currency', '=', only.currency)
  const rows = await query.groupBy(['e.creator_id', 'e.currency', 'a.stripe_account_id']).execute()
  return rows.map((row) => ({
    creatorId: row.creator_id as string,
    currency: row.currency,
    availableMinor: Number(row.available) - Number(row.claimed ?? 0),
    stripeAccountId: row.stripe_account_id,
  }))
}

/** The balances (`payoutBalances`) free to pay and at least the threshold: the month's payouts to open. */
export const payable = (balances: PayoutCandidate[], thresholdMinor: number): PayoutCandidate[] =>
  balances.filter((row) => row.availableMinor > 0 && row.availableMinor >= thresholdMinor)

export interface FittedPayouts {
  /** Payouts sent for less than they were opened with. */
  lowered: number
  /** Payouts with nothing left to pay, never to be sent. */
  withdrawn: number
}

/**
 * A creator's payouts claim more than the balance holds (a dispute held, or a refund took back, part of it after the
 * payouts were opened): the payouts no transfer can exist for yet (pending, or failed: Stripe refused every try) give
 * up the difference, the newest first, and one with nothing left is 'withdrawn' (decision 0127). A payout Stripe may
 * have made (sending, unconfirmed) keeps its amount. The rows are locked and the balance read again under the lock,
 * so two runs fitting the same creator take the difference once.
 */
export async function fitPayoutsToBalance(
  db: DB,
  over: { creatorId: string; currency: Currency },
  maxAttempts: number,
): Promise<FittedPayouts> {
  return db.transaction().execute(async (trx) => {
    const unsent = await trx
      .selectFrom('creator_payouts')
      .select(['id', 'amount_minor'])
      .where('creator_id', '=', over.creatorId)
      .where('currency', '=', over.currency)
      .where((eb) =>
        eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'failed'), eb('attempts', '<', maxAttempts)])]),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .forUpdate()
      .execute()
    const [balance] = await payoutBalances(trx, maxAttempts, over)
    let excess = -(balance?.availableMinor ?? 0)
    const fitted: FittedPayouts = { lowered: 0, withdrawn: 0 }
    for (const payout of unsent) {
      if (excess <= 0) break
      const giveUp = Math.min(payout.amount_minor, excess)
      excess -= giveUp
      const left = payout.amount_minor - giveUp
      await trx
        .updateTable('creator_payouts')
        .set(
          left > 0
            ? { amount_minor: left }
            : { status: 'withdrawn', last_error: 'Nothing left to pay: a dispute or a refund took the balance back' },
        )
        .where('id', '=', payout.id)
        .execute()
      if (left > 0) fitted.lowered++
      else fitted.withdrawn++
    }
    return fitted
  })
}

/** The month's payout row for the candidate, made once with the balance of that moment. */
export async function openPayout(db: DB, candidate: PayoutCandidate, month: string): Promise<void> {
  await db
    .insertInto('creator_payouts')
    .values({
      creator_id: candidate.creatorId,
      month,
      currency: candidate.currency,
      amount_minor: candidate.availableMinor,
      stripe_account_id: candidate.stripeAccountId,
    })
    .onConflict((oc) => oc.columns(['creator_id', 'month', 'currency']).doNothing())
    .execute()
}

export interface ClaimedPayout {
  id: string
  creatorId: string
  month: string
  currency: Currency
  amountMinor: number
  stripeAccountId: string
  attempts: number
  /** The Stripe transfer's idempotency key for this try. */
  transferKey: string
}

export const payoutKey = (payout: { creatorId: string; month: string; currency: string }) =>
  `payout:${payout.creatorId}:${payout.month}:${payout.currency}`

/**
 * Claims the payouts still to send (new, failed under the try limit, unconfirmed whatever its tries, or stale): each
 * claim succeeds for one worker. The claim also gives the try its transfer's idempotency key (decision 0127): the key
 * the payout keeps, if its last try may have made a transfer Stripe would answer for under it (no answer, or a crashed
 * 'sending'), else a new one ending in the try's number. A key Stripe answered with a refusal or a server error is
 * spent (`markPayoutNotPaid`): Stripe keeps that answer under it for 24 hours and would give it back untried. The
 * payouts of `held` creators are not claimed.
 */
export async function claimPayouts(
  db: DB,
  now: Date,
  maxAttempts: number,
  held: ReadonlySet<string> = new Set(),
): Promise<ClaimedPayout[]> {
  let claim = db
    .updateTable('creator_payouts')
    .set((eb) => ({
      status: 'sending',
      claimed_at: now,
      attempts: eb('attempts', '+', 1),
      // SET reads the row as it was: `attempts + 1` is this try's number. The new key is `payoutKey` and the try's
      // number, written in SQL so the claim stores it with the row.
      transfer_key: sql<string>`coalesce(transfer_key,
        'payout:' || creator_id || ':' || month || ':' || currency || ':' || (attempts + 1))`,
    }))
    .where((eb) =>
      eb.or([
        eb('status', 'in', ['pending', 'unconfirmed']),
        eb.and([eb('status', '=', 'failed'), eb('attempts', '<', maxAttempts)]),
        eb.and([eb('status', '=', 'sending'), eb('claimed_at', '<', new Date(now.getTime() - STALE_SENDING_MS))]),
      ]),
    )
  // Held creators' payouts wait as they are (pending, failed, unconfirmed) for a run after the hold ends.
  if (held.size > 0) claim = claim.where('creator_id', 'not in', [...held])
  const rows = await claim
    .returning([
      'id',
      'creator_id',
      'month',
      'currency',
      'amount_minor',
      'stripe_account_id',
      'attempts',
      'transfer_key',
    ])
    .execute()
  return rows.map((row) => ({
    id: row.id,
    creatorId: row.creator_id,
    month: row.month,
    currency: row.currency,
    amountMinor: row.amount_minor,
    stripeAccountId: row.stripe_account_id,
    attempts: row.attempts,
    // Set by this claim.
    transferKey: row.transfer_key as string,
  }))
}

/** Stripe confirmed the transfer: the payout is paid and the ledger moves its amount to paid out, together. */
export async function markPayoutPaid(db: DB, payout: ClaimedPayout, transferId: string, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('creator_payouts')
      .set({ status: 'paid', stripe_transfer_id: transferId, paid_at: now, last_error: null })
      .where('id', '=', payout.id)
      .execute()
    const { creatorId, currency, amountMinor } = payout
    await post(trx, {
      key: payoutKey(payout),
      kind: 'payout',
      source: `transfer:${transferId}`,
      memo: `Payout ${payout.month}`,
      entries: [
        { account: 'creator_available', creatorId, currency, amountMinor: -amountMinor },
        { account: 'creator_paid_out', creatorId, currency, amountMinor },
      ],
    })
  })
}

/**
 * A try that did not pay: 'failed' when Stripe refused it (nothing was made), 'unconfirmed' when Stripe may have made
 * the transfer without our hearing so (no answer, a server error): that one keeps its amount claimed and is never given
 * up, since sending its amount again in another payout could pay it twice. `keySpent`: Stripe answered the try (a
 * refusal, a server error) and keeps that answer under its key, so the next try takes a new key, after looking the
 * transfer up; a try with no answer keeps its key, under which Stripe answers with the transfer if it made one.
 */
export async function markPayoutNotPaid(
  db: DB,
  payoutId: string,
  outcome: { status: 'failed' | 'unconfirmed'; error: string; keySpent: boolean },
): Promise<void> {
  await db
    .updateTable('creator_payouts')
    .set({
      status: outcome.status,
      last_error: outcome.error.slice(0, 500),
      ...(outcome.keySpent ? { transfer_key: null } : {}),
    })
    .where('id', '=', payoutId)
    .execute()
}

/** Whether the owner paused payouts. */
export async function payoutsPaused(db: DB): Promise<boolean> {
  const row = await db.selectFrom('payout_settings').select('paused').where('id', '=', 1).executeTakeFirst()
  return row?.paused ?? false
}

/**
 * A payout transfer Stripe reversed (in part or whole): the newly reversed amount goes back from paid out to
 * available, once per reversed total however often Stripe says so; a fully reversed payout is marked so. False when
 * the transfer is not one of our payouts.
 */
export async function recordTransferReversal(
  trx: DB,
  transfer: { transferId: string; amountMinor: number; amountReversedMinor: number },
): Promise<boolean> {
  const payout = await trx
    .selectFrom('creator_payouts')
    .select(['id', 'creator_id', 'currency'])
    .where('stripe_transfer_id', '=', transfer.transferId)
    .forUpdate()
    .executeTakeFirst()
  if (!payout) return false
  const source = `transfer:${transfer.transferId}`
  const recorded = await trx
    .selectFrom('ledger_transactions as t')
    .innerJoin('ledger_entries as e', 'e.transaction_id', 't.id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('e.amount_minor'), eb.lit(0)).as('total'))
    .where('t.kind', '=', 'transfer_reversal')
    .where('t.source', '=', source)
    .where('e.account', '=', 'creator_available')
    .executeTakeFirstOrThrow()
  const newlyReversed = transfer.amountReversedMinor - Number(recorded.total)
  if (newlyReversed > 0) {
    const { creator_id: creatorId, currency } = payout
    await post(trx, {
      key: `transfer_reversal:${transfer.transferId}:${transfer.amountReversedMinor}`,
      kind: 'transfer_reversal',
      source,
      entries: [
        { account: 'creator_paid_out', creatorId, currency, amountMinor: -newlyReversed },
        { account: 'creator_available', creatorId, currency, amountMinor: newlyReversed },
      ],
    })
  }
  if (transfer.amountReversedMinor >= transfer.amountMinor) {
    await trx.updateTable('creator_payouts').set({ status: 'reversed' }).where('id', '=', payout.id).execute()
  }
  return true
}

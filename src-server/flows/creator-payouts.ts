// Paying creators through Stripe Connect (separate charges and transfers): an Express account per creator with
// Stripe's hosted onboarding, its state kept from account.updated, monthly transfers of each available balance per
// currency at or above the threshold, and transfer reversals recorded in the ledger. Stripe is called outside any
// database transaction; the payout row and the transfer's idempotency key make every retry the same payment. Only a
// transfer Stripe refused is given up after PAYOUT_MAX_ATTEMPTS; one that may have been made (no answer) is looked up
// and settled by later runs, however many (decision 0108).

import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import { hasTwoFactor } from '../auth/two-factor.ts'
import {
  type AccountState,
  payoutAccountOf,
  recordPayoutAccount,
  updatePayoutAccount,
} from '../earnings/payout-accounts.ts'
import {
  claimPayouts,
  fitPayoutsToBalance,
  markPayoutNotPaid,
  markPayoutPaid,
  openPayout,
  payable,
  payoutBalances,
  payoutsPaused,
  recordTransferReversal,
} from '../earnings/payouts.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { type Applied, ignored, PROCESSED } from '../payments/event-outcome.ts'
import { type StripeApi, stripeAnsweredServerError, stripeRefused } from '../payments/stripe.ts'
import type { EventOf } from '../payments/stripe-event.ts'
import type { StripeConnectedAccount } from '../payments/stripe-schemas.ts'
import { suspendedAccountIds } from '../users/suspension.ts'

/** Payouts of at least this much per currency (50.00); smaller balances wait for the next month. */
export const DEFAULT_PAYOUT_THRESHOLD_MINOR = 5000
/**
 * A transfer Stripe refused this many times is left 'failed' for staff to see, its amount back in the next month's
 * payout. A payout whose try got no answer is 'unconfirmed' instead and has no limit: Stripe may have made it.
 */
export const PAYOUT_MAX_ATTEMPTS = 5

function stateOf(account: StripeConnectedAccount): AccountState {
  const deadline = account.requirements?.current_deadline
  return {
    stripeAccountId: account.id,
    chargesEnabled: account.charges_enabled,
    payoutsEnabled: account.payouts_enabled,
    detailsSubmitted: account.details_submitted,
    requirementsDue: account.requirements?.currently_due ?? [],
    requirementsDeadline: deadline ? new Date(deadline * 1000) : null,
    disabledReason: account.requirements?.disabled_reason ?? null,
  }
}

/** Stripe failing or not answering (its 10 s timeout) while a creator opens onboarding or the Express dashboard. */
export const PAYOUTS_STRIPE_FAILED = 'Stripe did not answer, so nothing changed. Please try again in a moment.'

const upstream = (error: unknown): never => {
  throw new DomainError('upstream', PAYOUTS_STRIPE_FAILED, { cause: error })
}

function stripeOf(stripe: StripeApi | null): StripeApi {
  if (!stripe) throw new DomainError('precondition', 'Payouts need Stripe: card payments are not configured')
  return stripe
}

/**
 * Set up payouts: the creator's Express account (made once; the key makes a retry the same account) and a fresh
 * onboarding link to Stripe's hosted pages.
 */
export const SECOND_FACTOR_BEFORE_PAYOUTS =
  'Turn on two-factor sign-in (Account → Security) before setting up payouts: they move your money'

/**
 * Whether the creator still needs a second factor before payouts can be set up: a stolen password must not be
 * enough to redirect a creator's money. STAFF_2FA=optional (demos, tests) waives it, as it does for staff.
 */
export async function payoutsNeedSecondFactor(db: DB, creatorId: string, required: boolean): Promise<boolean> {
  return required && !(await hasTwoFactor(db, creatorId))
}

export async function setUpPayouts(
  db: DB,
  stripe: StripeApi | null,
  creator: { id: string; email: string },
  urls: { refreshUrl: string; returnUrl: string },
  options: { requireSecondFactor: boolean } = { requireSecondFactor: false },
): Promise<string> {
  if (await payoutsNeedSecondFactor(db, creator.id, options.requireSecondFactor)) {
    throw new DomainError('precondition', SECOND_FACTOR_BEFORE_PAYOUTS)
  }
  const api = stripeOf(stripe).connect
  let accountId = (await payoutAccountOf(db, creator.id))?.stripe_account_id
  if (!accountId) {
    const account = await api
      .createExpressAccount(
        { email: creator.email, metadata: { creator_id: creator.id } },
        `connect-account:${creator.id}`,
      )
      .catch(upstream)
    accountId = await recordPayoutAccount(db, creator.id, stateOf(account), null)
  }
  // The account is kept when only the link fails: a retry asks for a link again, with the same account.
  return api.createOnboardingLink(accountId, urls).catch(upstream)
}

/** The Express dashboard for a creator whose onboarding is done. */
export async function payoutDashboardLink(db: DB, stripe: StripeApi | null, creatorId: string): Promise<string> {
  const account = await payoutAccountOf(db, creatorId)
  if (!account?.details_submitted) throw new DomainError('precondition', 'Finish setting up payouts first')
  return stripeOf(stripe).connect.createLoginLink(account.stripe_account_id).catch(upstream)
}

/** account.updated: what Stripe now says of a creator's account (an account not ours is ignored). */
export async function accountUpdated(trx: Transaction<Database>, event: EventOf<'account'>): Promise<Applied> {
  const known = await updatePayoutAccount(trx, stateOf(event.object), event.createdAt)
  return known ? PROCESSED : ignored('not_ours')
}

/**
 * transfer.reversed: money taken back from a creator's account (by staff in Stripe's dashboard) returns to their
 * available balance; each reversed amount is recorded once, however often the event comes.
 */
export async function transferReversed(trx: Transaction<Database>, event: EventOf<'transfer'>): Promise<Applied> {
  const { id, amount, amount_reversed: amountReversed } = event.object
  const recorded = await recordTransferReversal(trx, {
    transferId: id,
    amountMinor: amount,
    amountReversedMinor: amountReversed,
  })
  return recorded ? PROCESSED : ignored('not_ours')
}

export interface PayoutRun {
  opened: number
  /** Lowered to what the creator still has (a dispute or a refund took part back since it was opened). */
  lowered: number
  /** Nothing left to pay: never sent. */
  withdrawn: number
  paid: number
  /** Refused by Stripe: nothing was made. */
  failed: number
  /** No answer from Stripe (or a server error): the transfer may exist, so the payout stays claimed to be looked up. */
  unconfirmed: number
  paused: boolean
  /** Creators with a balance to pay whose account is suspended (decision 0164): nothing opened or sent to them. */
  held: number
}

/**
 * The month's payouts: one row per creator and currency with a ready account and enough available, then every
 * claimable row sent to Stripe. Safe to run on several workers at once and to re-run after an outage.
 */
export async function runPayouts(
  db: DB,
  stripe: StripeApi | null,
  options: { month: string; thresholdMinor?: number; now?: Date },
): Promise<PayoutRun> {
  const now = options.now ?? clock.now()
  if (await payoutsPaused(db)) {
    return { opened: 0, lowered: 0, withdrawn: 0, paid: 0, failed: 0, unconfirmed: 0, paused: true, held: 0 }
  }
  const api = stripeOf(stripe).connect
  // A suspended account is paid nothing while it lasts: its balance stays in the ledger and the first run after the
  // suspension is lifted pays it (decision 0164). Staff suspend a fraudster before the money leaves.
  const suspended = await suspendedAccountIds(db)
  const balances = await payoutBalances(db, PAYOUT_MAX_ATTEMPTS)
  const due = payable(balances, options.thresholdMinor ?? DEFAULT_PAYOUT_THRESHOLD_MINOR)
  const candidates = due.filter((candidate) => !suspended.has(candidate.creatorId))
  const held = new Set(due.filter((candidate) => suspended.has(candidate.creatorId)).map((c) => c.creatorId))
  for (const candidate of candidates) await openPayout(db, candidate, options.month)
  // Claimed beyond the balance: the payouts not yet made give up the difference before anything is sent.
  let lowered = 0
  let withdrawn = 0
  for (const over of balances.filter((balance) => balance.availableMinor < 0)) {
    const fitted = await fitPayoutsToBalance(db, over, PAYOUT_MAX_ATTEMPTS)
    lowered += fitted.lowered
    withdrawn += fitted.withdrawn
  }
  let paid = 0
  let failed = 0
  let unconfirmed = 0
  for (const payout of await claimPayouts(db, now, PAYOUT_MAX_ATTEMPTS, suspended)) {
    const transferGroup = `payout-${payout.month}`
    // Only Stripe refusing the create proves there is no transfer: the lookup before it found none, and a refused call
    // made nothing. Anything else (no answer, a server error, a failed lookup, the ledger write failing after the
    // transfer) may leave a transfer behind, so the payout is not given up and its amount is not paid out again.
    let refused = false
    let keySpent = false
    try {
      // A retry (a failed or unconfirmed try, or a 'sending' row a crashed worker left) first looks for the transfer an
      // earlier try may have made without hearing back: the idempotency key alone covers only the 24 hours Stripe keeps
      // it, and a payout not paid is retried by next month's run too. Found, it is recorded; not found, it is sent with
      // the key the claim gave it (the same one unless Stripe answered the last try, decision 0127).
      const earlier =
        payout.attempts > 1
          ? await api.findPayoutTransfer({ accountId: payout.stripeAccountId, transferGroup, payoutId: payout.id })
          : null
      const transfer =
        earlier ??
        (await api
          .createTransfer(
            {
              accountId: payout.stripeAccountId,
              amountMinor: payout.amountMinor,
              currency: payout.currency,
              transferGroup,
              metadata: { creator_id: payout.creatorId, month: payout.month, payout_id: payout.id },
            },
            payout.transferKey,
          )
          .catch((error: unknown) => {
            refused = stripeRefused(error)
            keySpent = refused || stripeAnsweredServerError(error)
            throw error
          }))
      await markPayoutPaid(db, payout, transfer.id, now)
      paid++
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      await markPayoutNotPaid(db, payout.id, { status: refused ? 'failed' : 'unconfirmed', error: message, keySpent })
      if (refused) failed++
      else unconfirmed++
    }
  }
  return { opened: candidates.length, lowered, withdrawn, paid, failed, unconfirmed, paused: false, held: held.size }
}

/** The payout month a run on `at` pays: the month before (balances released by its end). */
export function payoutMonthOf(at: Date): string {
  const previous = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1))
  return `${previous.getUTCFullYear()}-${String(previous.getUTCMonth() + 1).padStart(2, '0')}`
}

// Staff finance over creators' money (/admin/finance): what is owed to creators per currency against the platform's
// Stripe balance (a Stripe outage reads "unavailable", never an error), the payouts run, failed and unconfirmed,
// negative balances, a CSV of every creator's balances, and the owner's pause of payouts (audited with the change).
import { type Actor, record } from '../audit/repository.ts'
import { payoutsPaused } from '../earnings/payouts.ts'
import { allCreatorBalances, listPayouts, owedToCreators, setPayoutsPaused } from '../earnings/statements.ts'
import type { DB } from '../kernel/db.ts'
import type { StripeApi } from '../payments/stripe.ts'
import { toCsv } from './creator-earnings-view.ts'

export type StripeBalanceView =
  | {
      state: 'available'
      available: { currency: string; amountMinor: number }[]
      pending: { currency: string; amountMinor: number }[]
    }
  | { state: 'unavailable'; reason: string }

async function stripeBalance(stripe: StripeApi | null): Promise<StripeBalanceView> {
  if (!stripe) return { state: 'unavailable', reason: 'Card payments (Stripe) are not configured' }
  try {
    const balance = await stripe.connect.retrieveBalance()
    const amounts = (list: { amount: number; currency: string }[]) =>
      list.map((entry) => ({ currency: entry.currency.toUpperCase(), amountMinor: entry.amount }))
    return { state: 'available', available: amounts(balance.available), pending: amounts(balance.pending) }
  } catch {
    return { state: 'unavailable', reason: 'Stripe did not answer; try again later' }
  }
}

export async function financeOverview(db: DB, stripe: StripeApi | null) {
  const [owed, balances, payouts, paused, platform] = await Promise.all([
    owedToCreators(db),
    allCreatorBalances(db),
    listPayouts(db),
    payoutsPaused(db),
    stripeBalance(stripe),
  ])
  return {
    owed,
    stripeBalance: platform,
    payouts,
    failedPayouts: payouts.filter((payout) => payout.status === 'failed').length,
    unconfirmedPayouts: payouts.filter((payout) => payout.status === 'unconfirmed').length,
    negativeBalances: balances.filter((balance) => balance.availableMinor < 0),
    paused,
  }
}

/** The owner pauses or resumes the monthly payouts; recorded in the audit log with the change. */
export async function setPayoutsPausedBy(db: DB, actor: Actor, paused: boolean): Promise<{ paused: boolean }> {
  await db.transaction().execute(async (trx) => {
    const before = await setPayoutsPaused(trx, paused, actor.id)
    await record(trx, actor, paused ? 'payouts.pause' : 'payouts.resume', {
      type: 'payout_settings',
      id: '1',
      before: { paused: before },
      after: { paused },
    })
  })
  return { paused }
}

const decimal = (minor: number) => (minor / 100).toFixed(2)

/** Every creator's balances per currency, as CSV (staff's export). */
export async function creatorBalancesCsv(db: DB): Promise<string> {
  const rows = await allCreatorBalances(db)
  return toCsv([
    ['Creator', 'Email', 'Currency', 'Pending', 'Available', 'Paid out', 'Owed to creator'],
    ...rows.map((row) => [
      row.name,
      row.email,
      row.currency,
      decimal(row.pendingMinor),
      decimal(row.availableMinor),
      decimal(row.paidOutMinor),
      decimal(row.pendingMinor + row.availableMinor),
    ]),
  ])
}

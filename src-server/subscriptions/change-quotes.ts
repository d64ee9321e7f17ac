// The plan change a member was last shown (decision 0135): the preview's proration date is kept here, not trusted from
// the client, so the change charges what the preview showed. One row per subscription (a newer preview replaces it),
// taken once by the change, and only within CHANGE_QUOTE_MINUTES of the preview.
import type { BillingCycle } from '../../db/types.ts'
import type { DB } from '../kernel/db.ts'

/** How long a shown price may be confirmed: long enough to read the dialog, short enough to stay the same period. */
export const CHANGE_QUOTE_MINUTES = 10

export interface ChangeQuote {
  subscriptionId: string
  planId: string
  billingCycle: BillingCycle
  /** Stripe's proration date of the preview (unix seconds). */
  prorationDate: number
  amountDueMinor: number
}

export async function keepChangeQuote(db: DB, quote: ChangeQuote, at: Date): Promise<void> {
  const values = {
    plan_id: quote.planId,
    billing_cycle: quote.billingCycle,
    proration_at: new Date(quote.prorationDate * 1000),
    amount_due_minor: quote.amountDueMinor,
    quoted_at: at,
  }
  await db
    .insertInto('plan_change_quotes')
    .values({ subscription_id: quote.subscriptionId, ...values })
    .onConflict((oc) => oc.column('subscription_id').doUpdateSet(values))
    .execute()
}

/**
 * The proration date of the preview this confirmation names (same plan, cycle and date, shown less than
 * CHANGE_QUOTE_MINUTES ago), removed as it is read so it is used once (two confirmations at once: one finds it); null
 * when there is none.
 */
export async function takeChangeQuote(
  db: DB,
  wanted: Omit<ChangeQuote, 'amountDueMinor'>,
  at: Date,
): Promise<number | null> {
  const row = await db
    .deleteFrom('plan_change_quotes')
    .where('subscription_id', '=', wanted.subscriptionId)
    .where('plan_id', '=', wanted.planId)
    .where('billing_cycle', '=', wanted.billingCycle)
    .where('proration_at', '=', new Date(wanted.prorationDate * 1000))
    .where('quoted_at', '>', new Date(at.getTime() - CHANGE_QUOTE_MINUTES * 60_000))
    .returning('proration_at')
    .executeTakeFirst()
  return row ? Math.round(row.proration_at.getTime() / 1000) : null
}

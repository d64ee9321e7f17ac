// Creators' Stripe Connect (Express) accounts as Stripe last described them: whether payouts can reach the creator,
// and what Stripe still needs (with its deadline). Written when the account is made and on every account.updated,
// an older event never overwriting a newer state.
import type { DB } from '../kernel/db.ts'

export interface AccountState {
  stripeAccountId: string
  chargesEnabled: boolean
  payoutsEnabled: boolean
  detailsSubmitted: boolean
  requirementsDue: string[]
  requirementsDeadline: Date | null
  disabledReason: string | null
}

export async function payoutAccountOf(db: DB, creatorId: string) {
  return db.selectFrom('creator_payout_accounts').selectAll().where('creator_id', '=', creatorId).executeTakeFirst()
}

/**
 * Records a new account for the creator (a second call keeps the first account). `at` null: no event applied yet, so
 * the first account.updated applies whatever its time (Stripe's `created` is in whole seconds and may be earlier than
 * our clock's reading when the account was made).
 */
export async function recordPayoutAccount(
  db: DB,
  creatorId: string,
  state: AccountState,
  at: Date | null,
): Promise<string> {
  const row = await db
    .insertInto('creator_payout_accounts')
    .values({ creator_id: creatorId, ...toColumns(state), stripe_updated_at: at })
    .onConflict((oc) => oc.column('creator_id').doNothing())
    .returning('stripe_account_id')
    .executeTakeFirst()
  if (row) return row.stripe_account_id
  return (await payoutAccountOf(db, creatorId))!.stripe_account_id
}

/** Applies Stripe's account state if it is newer than the stored one; false when the account is not ours. */
export async function updatePayoutAccount(db: DB, state: AccountState, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('creator_payout_accounts')
    .set({ ...toColumns(state), stripe_updated_at: at })
    .where('stripe_account_id', '=', state.stripeAccountId)
    .where((eb) => eb.or([eb('stripe_updated_at', 'is', null), eb('stripe_updated_at', '<=', at)]))
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) > 0) return true
  const known = await db
    .selectFrom('creator_payout_accounts')
    .select('creator_id')
    .where('stripe_account_id', '=', state.stripeAccountId)
    .executeTakeFirst()
  return known !== undefined
}

function toColumns(state: AccountState) {
  return {
    stripe_account_id: state.stripeAccountId,
    charges_enabled: state.chargesEnabled,
    payouts_enabled: state.payoutsEnabled,
    details_submitted: state.detailsSubmitted,
    requirements_due: JSON.stringify(state.requirementsDue),
    requirements_deadline: state.requirementsDeadline,
    disabled_reason: state.disabledReason,
  }
}

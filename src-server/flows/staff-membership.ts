// Staff end a member's plan from the Orders screen (decision 0096): at the end of the current period (the member's own
// Cancel membership, Premium until then) or now (Premium ends at once; a free trial ends without a charge). No refund
// is made here: refunds stay the Refund dialog's. The change, its audit entry naming the staff member and the
// member's mail commit together; a plan that has ended, or is being set to end by another admin, is refused (as is one
// already set to end, for the period's end).
import { STAFF_END_MESSAGES, type StaffEndWhen } from '../../src-shared/schemas/membership.ts'
import * as audit from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { sendEndedByStaffMail } from '../subscriptions/mails.ts'
import { claimStaffEnd, releaseStaffEnd, staffEndClaimHolds, subscriptionToEnd } from '../subscriptions/repository.ts'
import { cancelAtPeriodEnd, endMembershipNow, type MembershipDeps } from './membership.ts'

type ToEnd = Awaited<ReturnType<typeof subscriptionToEnd>>

/** The plan as it may be ended `when`, or the refusal that says why not. */
function endable(row: ToEnd, when: StaffEndWhen) {
  if (!row || row.duplicate_of) throw new DomainError('not_found', STAFF_END_MESSAGES.notFound)
  if (row.ended_at || row.status === 'cancelled') throw new DomainError('conflict', STAFF_END_MESSAGES.ended)
  if (when === 'period_end' && row.cancel_at_period_end) {
    throw new DomainError('conflict', STAFF_END_MESSAGES.scheduled)
  }
  // Another admin is setting it to end at the period's end (Stripe is being asked): ending it now as well would give
  // the member two contradicting mails and leave that admin's change applied to an ended plan.
  if (when === 'now' && staffEndClaimHolds(row.staff_end_claimed_at, clock.now())) {
    throw new DomainError('conflict', STAFF_END_MESSAGES.inProgress)
  }
  return row
}

const factsOf = (row: NonNullable<ToEnd>) => ({
  status: row.status,
  cancelAtPeriodEnd: row.cancel_at_period_end,
  renewsAt: row.renews_at?.toISOString() ?? null,
  endedAt: row.ended_at?.toISOString() ?? null,
})

export async function endMembershipByStaff(
  deps: MembershipDeps & { publicUrl: string },
  input: { subscriptionId: string; when: StaffEndWhen; reason?: string },
  actor: audit.Actor,
) {
  const before =
    input.when === 'now'
      ? endable(await subscriptionToEnd(deps.db, input.subscriptionId, { lock: false }), 'now')
      : await claimEndAtPeriodEnd(deps.db, input.subscriptionId)
  const trial = before.status === 'trialing'
  const alongWith = async (trx: DB) => {
    const after = await subscriptionToEnd(trx, before.id, { lock: false })
    await audit.record(trx, actor, input.when === 'now' ? 'membership.end_now' : 'membership.end_at_period_end', {
      type: 'subscription',
      id: before.id,
      before: factsOf(before),
      after: { ...(after ? factsOf(after) : {}), userId: before.user_id, reason: input.reason ?? null },
    })
    await sendEndedByStaffMail(trx, before.id, { when: input.when, trial }, deps.publicUrl)
  }
  if (input.when === 'now') {
    await endMembershipNow(deps, before.id, (row) => endable(row, 'now'), alongWith, actor.id)
  } else {
    const releasingWith = async (trx: DB) => {
      await alongWith(trx)
      await releaseStaffEnd(trx, before.id)
    }
    await cancelAtPeriodEnd(deps, before, input.reason ?? null, releasingWith).catch(async (error: unknown) => {
      // Stripe refused, or its answer was not saved (its webhook brings it): the claim goes, or lapses within a minute
      // should the database be what failed.
      await releaseStaffEnd(deps.db, before.id).catch(() => undefined)
      throw error
    })
  }
  return { subscriptionId: before.id, when: input.when }
}

/**
 * The plan as it may be set to end at its period's end, claimed for this admin while Stripe is asked: of two admins at
 * once, the second is told the first is ending it, so one change makes one audit entry and one mail. The claim goes
 * with the change's transaction (or when it fails). Ending it now takes no claim (it runs under the row's lock) but is
 * refused while one holds.
 */
async function claimEndAtPeriodEnd(db: DB, subscriptionId: string) {
  return db.transaction().execute(async (trx) => {
    const row = endable(await subscriptionToEnd(trx, subscriptionId, { lock: true }), 'period_end')
    if (!(await claimStaffEnd(trx, row.id, clock.now()))) {
      throw new DomainError('conflict', STAFF_END_MESSAGES.inProgress)
    }
    return row
  })
}

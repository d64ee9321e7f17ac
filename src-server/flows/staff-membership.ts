// Staff end a member's plan from the Orders screen (decision 0096): at the end of the current period (the member's own
// Cancel membership, Premium until then) or now (Premium ends at once; a free trial ends without a charge). No refund
// is made here: refunds stay the Refund dialog's. The change, its audit entry naming the staff member and the
// member's mail commit together; a plan that has ended (or is already set to end, for the period's end) is refused.
import { STAFF_END_MESSAGES, type StaffEndWhen } from '../../src-shared/schemas/membership.ts'
import * as audit from '../audit/repository.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { sendEndedByStaffMail } from '../subscriptions/mails.ts'
import { subscriptionToEnd } from '../subscriptions/repository.ts'
import { cancelAtPeriodEnd, endMembershipNow, type MembershipDeps } from './membership.ts'

type ToEnd = Awaited<ReturnType<typeof subscriptionToEnd>>

/** The plan as it may be ended `when`, or the refusal that says why not. */
function endable(row: ToEnd, when: StaffEndWhen) {
  if (!row || row.duplicate_of) throw new DomainError('not_found', STAFF_END_MESSAGES.notFound)
  if (row.ended_at || row.status === 'cancelled') throw new DomainError('conflict', STAFF_END_MESSAGES.ended)
  if (when === 'period_end' && row.cancel_at_period_end) {
    throw new DomainError('conflict', STAFF_END_MESSAGES.scheduled)
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
  const before = endable(await subscriptionToEnd(deps.db, input.subscriptionId, { lock: false }), input.when)
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
  if (input.when === 'period_end') await cancelAtPeriodEnd(deps, before, input.reason ?? null, alongWith)
  else await endMembershipNow(deps, before.id, (row) => endable(row, 'now'), alongWith, actor.id)
  return { subscriptionId: before.id, when: input.when }
}

// The support a member's plan promises (decision 0098): the tier of their live plan when they write, and an
// Enterprise member's dedicated success manager, who receives their messages and whom they see on /contact.
import { fullName } from '../../src-shared/names.ts'
import type { ContactMessage } from '../../src-shared/schemas/contact.ts'
import type { AssignSuccessManagerInput } from '../../src-shared/schemas/support.ts'
import { SUPPORT_TIER_INFO, supportTierFor } from '../../src-shared/support.ts'
import type * as audit from '../audit/repository.ts'
import { type ContactSender, submitContactMessage } from '../contact/messages.ts'
import { assignSuccessManager, staffMemberById, successManagerOf } from '../contact/success-managers.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { currentSubscription } from '../subscriptions/premium.ts'
import { findUserByEmail } from '../users/email.ts'

/** The member's support now: tier, its label and reply time, and their success manager (Enterprise only). */
export async function supportOf(db: DB, userId: string, now = clock.now()) {
  const [plan, manager] = await Promise.all([currentSubscription(db, userId, now), successManagerOf(db, userId)])
  const tier = supportTierFor(plan?.held_plan_id)
  return {
    tier,
    ...SUPPORT_TIER_INFO[tier],
    planName: plan?.held_plan_id ? (plan.name ?? plan.gift_plan_name) : null,
    manager:
      tier === 'dedicated' && manager
        ? { name: fullName(manager.firstName, manager.lastName) || manager.email, email: manager.email }
        : null,
  }
}

/** A signed-in member as a contact message's sender: their tier and success manager. */
export async function contactSenderOf(db: DB, userId: string, now = clock.now()): Promise<ContactSender> {
  const support = await supportOf(db, userId, now)
  return { userId, tier: support.tier, managerEmail: support.manager?.email ?? null }
}

/** A contact message, with its signed-in sender's tier and success manager (a visitor writes at the Email tier). */
export async function sendContactMessage(db: DB, message: ContactMessage, userId: string | null, now = clock.now()) {
  const sender = userId ? await contactSenderOf(db, userId, now) : undefined
  return submitContactMessage(db, message, sender, now)
}

export const NOT_ENTERPRISE = 'Only a member on the Enterprise plan has a dedicated success manager'

/** Staff give an Enterprise member a success manager from the staff. */
export async function assignManager(db: DB, actor: audit.Actor, input: AssignSuccessManagerInput, now = clock.now()) {
  const [member, manager] = await Promise.all([
    findUserByEmail(db, input.memberEmail),
    staffMemberById(db, input.managerId),
  ])
  if (!member) throw new DomainError('not_found', 'No account has that email address')
  if (!manager) throw new DomainError('not_found', 'Choose a staff member')
  const plan = await currentSubscription(db, member.id, now)
  if (supportTierFor(plan?.held_plan_id) !== 'dedicated') throw new DomainError('precondition', NOT_ENTERPRISE)
  await assignSuccessManager(db, actor, member.id, manager.id, now)
  return { memberId: member.id, managerId: manager.id }
}

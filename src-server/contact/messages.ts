// A contact message is stored and its staff notification queued in one transaction: both or neither. The message
// carries its sender's support tier (decision 0098): the mail's subject says it, and a dedicated-tier message goes
// to the member's success manager when they have one, the shared staff address otherwise.
import type { ContactMessage } from '../../src-shared/schemas/contact.ts'
import { replyDueAt, SUPPORT_TIER_INFO, type SupportTier } from '../../src-shared/support.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { staffEmail } from '../mail/staff-address.ts'

/** Who wrote: the signed-in account (null for a visitor), the tier their plan gives, their success manager's address. */
export interface ContactSender {
  userId: string | null
  tier: SupportTier
  managerEmail: string | null
}

const VISITOR: ContactSender = { userId: null, tier: 'email', managerEmail: null }

const SUBJECT_PREFIX: Record<SupportTier, string> = { email: '', priority: '[Priority] ', dedicated: '[24/7] ' }

export async function submitContactMessage(
  db: DB,
  message: ContactMessage,
  sender: ContactSender = VISITOR,
  now = clock.now(),
) {
  const dueAt = replyDueAt(sender.tier, now)
  return inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('contact_messages')
      .values({
        name: message.name,
        email: message.email,
        subject: message.subject,
        message: message.message,
        user_id: sender.userId,
        support_tier: sender.tier,
        created_at: now,
        reply_due_at: dueAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await enqueueMail(trx, {
      kind: 'contact-message',
      to: (sender.tier === 'dedicated' && sender.managerEmail) || staffEmail(),
      replyTo: message.email, // staff answer the sender straight from their mail client
      subject: `${SUBJECT_PREFIX[sender.tier]}Contact form: ${message.subject}`,
      text: [
        `From: ${message.name} <${message.email}>`,
        `Subject: ${message.subject}`,
        `Support: ${SUPPORT_TIER_INFO[sender.tier].label}, reply due by ${dueAt.toISOString()}`,
        '',
        message.message,
        '',
        `Message id: ${row.id}`,
      ].join('\n'),
    })
    return row.id
  })
}

/** Removes contact messages received before `before` (the retention job). */
export async function purgeOldContactMessages(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('contact_messages').where('created_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}

// "A new section is open" (issue 33): one mail per learner and section. The drip_unlock_mails row is the claim,
// inserted with the outbox row in one transaction, so a sweep that runs twice (or on two workers) sends it once.
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'

export interface DueUnlock {
  userId: string
  email: string
  firstName: string | null
  courseId: string
  courseTitle: string
  sectionId: string
  sectionTitle: string
  unlockedAt: Date
}

/** Claims and queues the mail; false when it was already sent. Call inside a transaction. */
export async function sendUnlockMail(trx: DB, due: DueUnlock, publicUrl: string): Promise<boolean> {
  const claimed = await trx
    .insertInto('drip_unlock_mails')
    .values({ user_id: due.userId, section_id: due.sectionId, unlocked_at: due.unlockedAt })
    .onConflict((oc) => oc.columns(['user_id', 'section_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst()
  if (!claimed) return false
  const link = `${publicUrl.replace(/\/$/, '')}/learn/${encodeURIComponent(due.courseId)}`
  await enqueueMail(trx, {
    kind: 'drip_unlocked',
    to: due.email,
    subject: `New lessons are open in ${due.courseTitle}`,
    text: `Hi ${due.firstName || 'there'},\n\nThe section “${due.sectionTitle}” of ${due.courseTitle} is now open.\n\nContinue learning: ${link}\n`,
  })
  return true
}

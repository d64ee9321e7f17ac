// "A new section is open" (issue 33): one mail per learner and section. The drip_unlock_mails row is the claim,
// inserted with the outbox row in one transaction, so a sweep that runs twice (or on two workers) sends it once.
import type { DB } from '../kernel/db.ts'
import { courseNewsEnding } from '../mail/course-news.ts'
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

/** Claims one learner's mail for one section: true for the one caller that may send it. */
export type UnlockClaim = (trx: DB, due: DueUnlock) => Promise<boolean>

/**
 * The claim: an insert that does nothing on the (user, section) key. A second worker's insert waits for the first's
 * transaction and then finds the row, so exactly one of them claims, however they interleave
 * (tests/integration/learning/drip-mail-race.test.ts shows a read-then-insert claim failing that race).
 */
export const claimUnlockMail: UnlockClaim = async (trx, due) => {
  const claimed = await trx
    .insertInto('drip_unlock_mails')
    .values({ user_id: due.userId, section_id: due.sectionId, unlocked_at: due.unlockedAt })
    .onConflict((oc) => oc.columns(['user_id', 'section_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst()
  return Boolean(claimed)
}

/** Claims and queues the mail; false when it was already sent. Call inside a transaction. */
export async function sendUnlockMail(
  trx: DB,
  due: DueUnlock,
  publicUrl: string,
  claim: UnlockClaim = claimUnlockMail,
): Promise<boolean> {
  if (!(await claim(trx, due))) return false
  const link = `${publicUrl.replace(/\/$/, '')}/learn/${encodeURIComponent(due.courseId)}`
  const ending = await courseNewsEnding(trx, { userId: due.userId, courseId: due.courseId }, publicUrl)
  await enqueueMail(trx, {
    kind: 'drip_unlocked',
    to: due.email,
    subject: `New lessons are open in ${due.courseTitle}`,
    text: `Hi ${due.firstName || 'there'},\n\nThe section “${due.sectionTitle}” of ${due.courseTitle} is now open.\n\nContinue learning: ${link}\n${ending.footer}`,
    listUnsubscribe: ending.listUnsubscribe,
  })
  return true
}

// The applicant hears of staff's decision, written to the outbox in the decision's transaction.
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'

async function applicantOf(trx: DB, userId: string) {
  return trx.selectFrom('users').select(['email', 'first_name']).where('id', '=', userId).executeTakeFirstOrThrow()
}

export async function mailApplicationApproved(trx: DB, userId: string, publicUrl: string) {
  const user = await applicantOf(trx, userId)
  await enqueueMail(trx, {
    kind: 'creator-application-approved',
    to: user.email,
    subject: 'Welcome to SkillForge: your application to teach was approved',
    text: [
      `Hi ${user.first_name},`,
      '',
      'Good news: your application to teach on SkillForge was approved. You are now a creator.',
      'Build your first course and your instructor profile in your studio:',
      '',
      `${publicUrl}/studio`,
    ].join('\n'),
  })
}

export async function mailApplicationDeclined(
  trx: DB,
  userId: string,
  reason: string,
  reapplyFrom: Date,
  publicUrl: string,
) {
  const user = await applicantOf(trx, userId)
  await enqueueMail(trx, {
    kind: 'creator-application-declined',
    to: user.email,
    subject: 'Your application to teach on SkillForge',
    text: [
      `Hi ${user.first_name},`,
      '',
      'Thank you for applying to teach on SkillForge. We are not able to accept your application this time.',
      '',
      `Our reviewer's reason: ${reason}`,
      '',
      `You are welcome to apply again from ${reapplyFrom.toISOString().slice(0, 10)}.`,
      `${publicUrl}/teach/application`,
    ].join('\n'),
  })
}

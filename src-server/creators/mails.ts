// The applicant hears of staff's decision, written to the outbox in the decision's transaction.
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'

/** A mail to the applicant about their application: their greeting, then `body`'s lines. */
async function mailApplicant(trx: DB, userId: string, mail: { kind: string; subject: string; body: string[] }) {
  const user = await trx
    .selectFrom('users')
    .select(['email', 'first_name'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  await enqueueMail(trx, {
    kind: mail.kind,
    to: user.email,
    subject: mail.subject,
    text: [`Hi ${user.first_name},`, '', ...mail.body].join('\n'),
  })
}

export async function mailApplicationApproved(trx: DB, userId: string, publicUrl: string) {
  await mailApplicant(trx, userId, {
    kind: 'creator-application-approved',
    subject: 'Welcome to SkillForge: your application to teach was approved',
    body: [
      'Good news: your application to teach on SkillForge was approved. You are now a creator.',
      'Build your first course and your instructor profile in your studio:',
      '',
      `${publicUrl}/studio`,
    ],
  })
}

export async function mailApplicationDeclined(
  trx: DB,
  userId: string,
  reason: string,
  reapplyFrom: Date,
  publicUrl: string,
) {
  await mailApplicant(trx, userId, {
    kind: 'creator-application-declined',
    subject: 'Your application to teach on SkillForge',
    body: [
      'Thank you for applying to teach on SkillForge. We are not able to accept your application this time.',
      '',
      `Our reviewer's reason: ${reason}`,
      '',
      `You are welcome to apply again from ${reapplyFrom.toISOString().slice(0, 10)}.`,
      `${publicUrl}/teach/application`,
    ],
  })
}

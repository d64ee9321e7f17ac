// The mail a staff member gets when failed admin log-ins for their account reach the cap and lock it for the
// window: so the owner of the account learns of the guessing (and of why the right password is refused).
import { isStaff } from '../../src-shared/roles.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { userEmailIs } from '../users/email.ts'

export const LOGIN_LOCKED_MAIL_KIND = 'admin-login-locked'

/** Queues the notice when `email` belongs to a staff account; true when one was queued. */
export async function queueLoginLockedNotice(
  db: DB,
  email: string,
  details: { failures: number; minutes: number; publicUrl: string },
): Promise<boolean> {
  const account = await db.selectFrom('users').select(['email', 'role']).where(userEmailIs(email)).executeTakeFirst()
  if (!account || !isStaff(account.role)) return false
  await enqueueMail(db, {
    kind: LOGIN_LOCKED_MAIL_KIND,
    to: account.email,
    subject: 'SkillForge admin sign-in blocked after failed attempts',
    text: [
      `Someone entered a wrong password for your SkillForge admin account ${details.failures} times.`,
      `To protect it, admin sign-in for this account is blocked for ${details.minutes} minutes, even with the right password.`,
      '',
      'If it was you, wait and try again. If it was not, consider changing your password once you can sign in:',
      `${details.publicUrl}/admin/login`,
    ].join('\n'),
  })
  return true
}

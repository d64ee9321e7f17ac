// The security notices an account's owner gets: a sign-in from a new device, second-factor changes, a password
// change. They say what happened and what to do if it was not them; they never carry a code or a link with a token.
import { formatDate } from '../../src-shared/dates.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'

export const SECURITY_MAIL_KINDS = {
  newDevice: 'security-new-device',
  twoFactorOn: 'security-2fa-on',
  twoFactorOff: 'security-2fa-off',
  recoveryCodeUsed: 'security-recovery-code-used',
  passwordChanged: 'security-password-changed',
  emailChanged: 'security-email-changed',
  emailChangeStarted: 'security-email-change-started',
  signedOutByStaff: 'security-signed-out-by-staff',
} as const

const NOT_YOU = (publicUrl: string) =>
  `If this was not you, change your password now and review your signed-in devices: ${publicUrl}/account/security`

async function mailUser(db: DB, userId: string, kind: string, subject: string, lines: string[]) {
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst()
  if (!user) return
  await enqueueMail(db, { kind, to: user.email, subject, text: `${lines.join('\n')}\n` })
}

export function queueNewDeviceNotice(
  db: DB,
  userId: string,
  details: { device: string; network: string; at: Date; publicUrl: string },
) {
  return mailUser(db, userId, SECURITY_MAIL_KINDS.newDevice, 'New sign-in to your SkillForge account', [
    'Your SkillForge account was just signed in to from a device we have not seen before:',
    '',
    `  ${details.device}`,
    `  network ${details.network}`,
    `  ${formatDate(details.at, 'mediumTime')}`,
    '',
    NOT_YOU(details.publicUrl),
  ])
}

export function queueTwoFactorChangedNotice(db: DB, userId: string, enabled: boolean, publicUrl: string) {
  return enabled
    ? mailUser(db, userId, SECURITY_MAIL_KINDS.twoFactorOn, 'Two-factor authentication is on', [
        'Two-factor authentication was turned on for your SkillForge account: signing in now asks for a code from your authenticator app.',
        '',
        NOT_YOU(publicUrl),
      ])
    : mailUser(db, userId, SECURITY_MAIL_KINDS.twoFactorOff, 'Two-factor authentication is off', [
        'Two-factor authentication was turned off for your SkillForge account: signing in asks only for your password.',
        '',
        NOT_YOU(publicUrl),
      ])
}

export function queueRecoveryCodeUsedNotice(db: DB, userId: string, left: number, publicUrl: string) {
  return mailUser(db, userId, SECURITY_MAIL_KINDS.recoveryCodeUsed, 'A recovery code was used to sign in', [
    `A recovery code was just used to sign in to your SkillForge account. ${left} unused recovery codes are left.`,
    '',
    NOT_YOU(publicUrl),
  ])
}

/** Support signed the account out on every device (decision 0162), at a request made to them. */
export function queueSignedOutByStaffNotice(db: DB, userId: string, publicUrl: string) {
  return mailUser(
    db,
    userId,
    SECURITY_MAIL_KINDS.signedOutByStaff,
    'Your SkillForge account was signed out everywhere',
    [
      'At a request made to our support team, your SkillForge account was just signed out on every device. Sign in again to go on.',
      '',
      NOT_YOU(publicUrl),
    ],
  )
}

export function queuePasswordChangedNotice(db: DB, userId: string, publicUrl: string) {
  return mailUser(db, userId, SECURITY_MAIL_KINDS.passwordChanged, 'Your SkillForge password was changed', [
    'The password of your SkillForge account was just changed, and every other signed-in device was signed out.',
    '',
    `If this was not you, reset your password now: ${publicUrl}/forgot-password`,
  ])
}

/**
 * To the address an account just left (the account's mail goes to the new one from now on). The new address is shown
 * in part only: whoever reads the old mailbox learns where the account went without being handed a full address.
 */
export function emailChangedNotice(oldEmail: string, newEmail: string, publicUrl: string) {
  return {
    kind: SECURITY_MAIL_KINDS.emailChanged,
    to: oldEmail,
    subject: 'Your SkillForge e-mail address was changed',
    text: [
      `The e-mail address of your SkillForge account was just changed to ${maskedEmail(newEmail)}. Sign-in and all mail about the account now use that address, and this one gets nothing more from us about it.`,
      '',
      `If this was not you, write to us at once: ${publicUrl}/contact`,
      '',
    ].join('\n'),
  }
}

/**
 * Told to the old address when support starts moving the account away from it (decision 0158): a person who still
 * reads it, and did not ask, has the hour the link lasts to stop it.
 */
export function emailChangeStartedNotice(oldEmail: string, newEmail: string, publicUrl: string) {
  return {
    kind: SECURITY_MAIL_KINDS.emailChangeStarted,
    to: oldEmail,
    subject: 'Our support team started changing your SkillForge e-mail address',
    text: [
      `At a request made to our support team, we sent a link to ${maskedEmail(newEmail)} that moves your SkillForge account to that address when it is opened, within an hour. Until then, nothing has changed.`,
      '',
      `If this was not you, stop it now: sign in and choose Cancel this change under E-mail address (${publicUrl}/account), and write to us at once: ${publicUrl}/contact`,
      '',
    ].join('\n'),
  }
}

/** "ad•••@example.com": the first two letters of the mailbox and the whole domain. */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@')
  return `${email.slice(0, Math.min(2, Math.max(at, 0)))}•••${email.slice(at)}`
}

// The account e-mails. Links are absolute, built from PUBLIC_URL.
import type { OutgoingMail } from '../mail/outbox.ts'

/**
 * Goes to an address nobody has proven yet, so it carries nothing the sign-up form let someone type (no name):
 * otherwise anyone could send our mail with their own words to any address.
 */
export function verificationMail(to: string, publicUrl: string, token: string): OutgoingMail {
  const link = `${publicUrl}/verify-email?token=${token}`
  return {
    kind: 'verify_email',
    to,
    subject: 'Verify your email address',
    text: `Hello,\n\nWelcome to SkillForge! Please confirm your email address by opening this link:\n\n${link}\n\nThe link works once and expires in 24 hours. If you did not sign up, you can ignore this message.\n`,
  }
}

export function passwordResetMail(to: string, publicUrl: string, token: string): OutgoingMail {
  const link = `${publicUrl}/reset-password?token=${token}`
  return {
    kind: 'reset_password',
    to,
    subject: 'Reset your password',
    text: `Someone asked to reset the password of your SkillForge account.\n\nTo choose a new password, open this link:\n\n${link}\n\nThe link works once and expires in 1 hour. If it was not you, ignore this message: your password stays the same.\n`,
  }
}

/** Sent instead of a second account when someone signs up with an address that already has one. */
export function alreadyRegisteredMail(to: string, publicUrl: string): OutgoingMail {
  return {
    kind: 'already_registered',
    to,
    subject: 'You already have a SkillForge account',
    text: `Someone tried to create a SkillForge account with this email address, which already has one.\n\nLog in: ${publicUrl}/login\nForgot your password? ${publicUrl}/forgot-password\n\nIf it was not you, you can ignore this message.\n`,
  }
}

/**
 * The link that moves an account to a new address, mailed to that address (following it proves the mailbox). Like the
 * verification mail it carries nothing the requester typed but the address itself.
 */
export function emailChangeMail(to: string, publicUrl: string, token: string): OutgoingMail {
  const link = `${publicUrl}/change-email?token=${token}`
  return {
    kind: 'change_email',
    to,
    subject: 'Confirm your new e-mail address',
    text: `Someone asked to move a SkillForge account to this e-mail address.\n\nTo confirm it is yours and make it the account's address, open this link:\n\n${link}\n\nThe link works once and expires in 1 hour. If it was not you, ignore this message: nothing changes without it.\n`,
  }
}

/** The change link when support started the move for a customer who can no longer read their old mailbox. */
export function emailChangeByStaffMail(to: string, publicUrl: string, token: string): OutgoingMail {
  const link = `${publicUrl}/change-email?token=${token}`
  return {
    kind: 'change_email',
    to,
    subject: 'Confirm your new e-mail address',
    text: `Our support team, at a request made to them, started moving a SkillForge account to this e-mail address.\n\nTo confirm it is yours and make it the account's address, open this link:\n\n${link}\n\nThe link works once and expires in 1 hour. If you did not ask us for this, ignore this message: nothing changes without it.\n`,
  }
}

/** Sent instead of a change link when the new address already has an account of its own: nothing moves. */
export function emailChangeTakenMail(to: string, publicUrl: string): OutgoingMail {
  return {
    kind: 'change_email_taken',
    to,
    subject: 'This address already has a SkillForge account',
    text: `Someone asked to move a SkillForge account to this e-mail address, which already has an account of its own, so nothing changed.\n\nLog in: ${publicUrl}/login\nForgot your password? ${publicUrl}/forgot-password\n\nIf it was not you, you can ignore this message.\n`,
  }
}

// Confirming a sensitive action (deleting one's account) with a fresh proof: the current password; or, with
// two-factor on, a code from the app; or, for an account without a password (signed up with Google or Facebook), a
// single-use code e-mailed to it. The code lives 15 minutes, only its SHA-256 is stored, and it is never logged.
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { mailCodeLine } from '../kernel/redact.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { verifyPassword } from './password.ts'
import { consumeToken, issueToken, TOKEN_TTL_MS } from './tokens.ts'
import { hasTwoFactor, type TwoFactorSettings, verifySecondFactor } from './two-factor.ts'

export const CONFIRM_MAIL_KIND = 'security-confirm-code'
export const CONFIRM_MESSAGES = {
  wrongPassword: 'That password is not right.',
  wrongCode: 'That code is not right, or it has expired. Ask for a new one.',
  needProof: 'Enter your password, or a code from your authenticator app.',
  needCode: 'Enter the code we e-mailed you.',
  hasPassword: 'Your account has a password: confirm with it instead.',
} as const

export interface ActionProof {
  password?: string | undefined
  /** A code from the authenticator app (or a recovery code), or the e-mailed confirmation code. */
  code?: string | undefined
}

/**
 * Whether a password may be typed on the site the request came to: false under a school's own domain, where the
 * account confirms as one without a password does, with an e-mailed code (decision 0063).
 */
export type PasswordHere = boolean

/** How this account confirms: with its password (and/or app code), or with an e-mailed code. */
export async function confirmationMethod(db: DB, userId: string, passwordHere: PasswordHere = true) {
  const user = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst()
  return { hasPassword: Boolean(user?.password_hash) && passwordHere, hasTwoFactor: await hasTwoFactor(db, userId) }
}

/** E-mails a single-use code (for accounts without a password only); an earlier unused code stops working. */
export async function sendConfirmationCode(db: DB, userId: string, action: string, passwordHere: PasswordHere = true) {
  const user = await db
    .selectFrom('users')
    .select(['email', 'password_hash'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  if (user.password_hash && passwordHere) throw new DomainError('precondition', CONFIRM_MESSAGES.hasPassword)
  // 8 bytes: a 13-character code, typed or pasted; tries are rate-limited per account by the caller.
  const code = await issueToken(db, userId, 'confirm_action', clock.now(), 8)
  const minutes = TOKEN_TTL_MS.confirm_action / 60_000
  await enqueueMail(db, {
    kind: CONFIRM_MAIL_KIND,
    to: user.email,
    subject: 'Your SkillForge confirmation code',
    text: [
      `Your code to confirm: ${action}`,
      '',
      mailCodeLine(code),
      '',
      `It works once, for ${minutes} minutes. If you did not ask for it, ignore this e-mail: nothing happens without it.`,
      '',
    ].join('\n'),
  })
}

/** Throws unless the proof is fresh and right for this account (see the file's comment). */
export async function confirmAction(
  db: DB,
  userId: string,
  proof: ActionProof,
  settings: TwoFactorSettings,
  passwordHere: PasswordHere = true,
) {
  const user = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()
  // Where no password is typed, the account confirms as one without a password: with the e-mailed code.
  const password = passwordHere ? user.password_hash : null
  if (password && proof.password) {
    if (!(await verifyPassword(password, proof.password))) {
      throw new DomainError('invalid', CONFIRM_MESSAGES.wrongPassword, { field: 'password' })
    }
    return
  }
  const code = proof.code?.trim()
  if (!password && code && /^[a-z2-7]{13}$/i.test(code)) {
    if ((await consumeToken(db, code.toLowerCase(), 'confirm_action')) === userId) return
    throw new DomainError('invalid', CONFIRM_MESSAGES.wrongCode, { field: 'code' })
  }
  if (code && (await hasTwoFactor(db, userId))) {
    await verifySecondFactor(db, userId, code, settings, clock.now())
    return
  }
  throw new DomainError(
    'invalid',
    password ? CONFIRM_MESSAGES.needProof : CONFIRM_MESSAGES.needCode,
    password ? { field: 'password' } : { field: 'code' },
  )
}

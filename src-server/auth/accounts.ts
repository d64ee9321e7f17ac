// Account rules: sign-up, e-mail verification, password reset and change. No answer here reveals whether an
// e-mail address has an account: sign-up and reset requests for a known address look exactly like others.

import type { SignupInput } from '../../src-shared/schemas/auth.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { findUserByEmail } from '../users/email.ts'
import { alreadyRegisteredMail, passwordResetMail, verificationMail } from './mails.ts'
import { hashPassword, verifyPassword } from './password.ts'
import { invalidateUserSessions } from './session.ts'
import {
  consumeToken,
  consumeVerificationToken,
  deletePendingTokens,
  deleteSignupLinksOfBrowser,
  hashToken,
  issueSignupToken,
  issueToken,
  newestSignupCredentials,
  readVerificationToken,
  type SignupCredentials,
} from './tokens.ts'

/**
 * Creates an unverified account and e-mails its verification link. For an address that already has an
 * account nothing is created: an unverified one gets a link of its own, a verified one a "you already have an
 * account" note. The caller answers the same in every case.
 *
 * The password and names travel on the link and are the account's once it is used (decision 0134): whoever
 * signed up first with someone else's address does not hold the account its owner then verifies. `browserSecret` is
 * the signing-up browser's (auth/signup-browser.ts): the link applies them there, or elsewhere with the password.
 */
export async function signUp(db: DB, input: SignupInput, publicUrl: string, browserSecret: string): Promise<void> {
  const passwordHash = await hashPassword(input.password)
  const signup = {
    passwordHash,
    firstName: input.firstName,
    lastName: input.lastName,
    browserHash: hashToken(browserSecret),
  }
  await db.transaction().execute(async (trx) => {
    const existing = await findUserByEmail(trx, input.email)
    if (existing) {
      if (existing.email_verified) await enqueueMail(trx, alreadyRegisteredMail(existing.email, publicUrl))
      else {
        const token = await issueSignupToken(trx, existing.id, signup)
        await enqueueMail(trx, verificationMail(existing.email, publicUrl, token))
      }
      return
    }
    const user = await trx
      .insertInto('users')
      .values({
        email: input.email.trim(),
        password_hash: passwordHash,
        first_name: input.firstName,
        last_name: input.lastName,
      })
      .returning(['id', 'email'])
      .executeTakeFirstOrThrow()
    const token = await issueSignupToken(trx, user.id, signup)
    await enqueueMail(trx, verificationMail(user.email, publicUrl, token))
  })
}

/**
 * E-mails a fresh verification link when the address has an account that is not verified yet; does nothing otherwise.
 * The caller answers the same in every case.
 *
 * Asked from a browser that signed up with the address (`browserSecret`, its signup cookie), the link carries that
 * browser's newest sign-up and replaces its earlier links. Asked from anywhere else it carries the newest sign-up and
 * replaces none: anyone may ask for a resend, so a stranger's must not end the owner's own link (decision 0134).
 */
export async function resendVerification(
  db: DB,
  email: string,
  publicUrl: string,
  browserSecret?: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, email)
    if (!user || user.email_verified) return
    const browserHash = browserSecret ? hashToken(browserSecret) : undefined
    const own = browserHash ? await newestSignupCredentials(trx, user.id, browserHash) : null
    if (own && browserHash) await deleteSignupLinksOfBrowser(trx, user.id, browserHash)
    const signup = own ?? (await newestSignupCredentials(trx, user.id)) ?? (await accountsOwnSignup(trx, user.id))
    // An account with no password to apply (one staff made) gets a plain link, which replaces the earlier ones.
    const token = signup ? await issueSignupToken(trx, user.id, signup) : await issueToken(trx, user.id, 'verify_email')
    await enqueueMail(trx, verificationMail(user.email, publicUrl, token))
  })
}

/**
 * Once every sign-up link has expired, the account's own password and names are the sign-up's (the first sign-up's,
 * kept on the account when it was made). Its link knows no browser, so it asks for that password wherever it is
 * opened: a link resent to the owner of an address a stranger signed up with a day ago cannot verify the stranger's
 * account with a click. Null for an account without a password.
 */
async function accountsOwnSignup(trx: DB, userId: string): Promise<SignupCredentials | null> {
  const row = await trx
    .selectFrom('users')
    .select(['password_hash', 'first_name', 'last_name'])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!row?.password_hash) return null
  return { passwordHash: row.password_hash, firstName: row.first_name, lastName: row.last_name, browserHash: null }
}

/** What proves the person opening a sign-up's link is the one who signed up: their browser, or the password chosen. */
export interface SignupProof {
  /** The secret of the browser's signup cookie, if it has one. */
  browserSecret?: string
  password?: string
}

/** Why a sign-up's link was not applied: no proof came with it, or the password was not the sign-up's. */
export type SignupProofRefusal = 'password-needed' | 'password-wrong'

/**
 * Marks the e-mail of the token's user verified, with the password and names of the sign-up that asked for this
 * link; the other sign-ups' links stop working and any session ends. A link carrying a sign-up's credentials is
 * applied only with a proof that the person opening it made that sign-up (`SignupProof`); without one nothing
 * changes and the link keeps working. The user's id, the refusal, or null for an unknown, used or expired token, or
 * one whose address was proven another way since (it is spent then, and applies nothing).
 */
export async function verifyEmail(
  db: DB,
  token: string,
  proof: SignupProof,
): Promise<{ userId: string } | { refused: SignupProofRefusal } | null> {
  const pending = await readVerificationToken(db, token)
  if (!pending) return null
  const refused = pending.signup ? await signupProofRefusal(pending.signup, proof) : null
  if (refused) return { refused }
  const userId = await db.transaction().execute(async (trx) => {
    // The single use: a second request with the same link finds it used here, whatever it read above.
    const used = await consumeVerificationToken(trx, token)
    if (!used) return null
    const { userId, signup } = used
    // Proven another way meanwhile (a reset link, Google, a school's sign-in, a staff invitation): whoever did that
    // holds the account, so a sign-up's link still pending is spent and applies nothing — a stranger's would have
    // put the stranger's password on it. Locked, so a proof committing meanwhile is seen.
    const account = await trx
      .selectFrom('users')
      .select('email_verified')
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirst()
    if (!account || account.email_verified) return null
    await trx
      .updateTable('users')
      .set({
        email_verified: true,
        updated_at: clock.now(),
        ...(signup
          ? { password_hash: signup.passwordHash, first_name: signup.firstName, last_name: signup.lastName }
          : {}),
      })
      .where('id', '=', userId)
      .execute()
    await deletePendingTokens(trx, userId, 'verify_email')
    await invalidateUserSessions(trx, userId)
    return userId
  })
  return userId ? { userId } : null
}

/** Null when the proof shows the sign-up is this person's: the browser that made it, or the password it chose. */
async function signupProofRefusal(signup: SignupCredentials, proof: SignupProof): Promise<SignupProofRefusal | null> {
  if (signup.browserHash && proof.browserSecret && hashToken(proof.browserSecret) === signup.browserHash) return null
  if (!proof.password) return 'password-needed'
  return (await verifyPassword(signup.passwordHash, proof.password)) ? null : 'password-wrong'
}

/** E-mails a reset link when the address has an account; does nothing otherwise. */
export async function requestPasswordReset(db: DB, email: string, publicUrl: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, email)
    if (!user) return
    const token = await issueToken(trx, user.id, 'reset_password')
    await enqueueMail(trx, passwordResetMail(user.email, publicUrl, token))
  })
}

/**
 * Sets a new password with a reset token and ends every session of the user. Following the link proves
 * the mailbox, so the address counts as verified too. Returns the user id, or null for a bad token.
 */
export async function resetPassword(db: DB, token: string, password: string): Promise<string | null> {
  const passwordHash = await hashPassword(password)
  return db.transaction().execute(async (trx) => {
    const userId = await consumeToken(trx, token, 'reset_password')
    if (!userId) return null
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, email_verified: true, updated_at: clock.now() })
      .where('id', '=', userId)
      .execute()
    await invalidateUserSessions(trx, userId)
    return userId
  })
}

/** Changes the password after checking the current one and ends every session of the user (the caller
 * starts a fresh one for the device that made the change). */
export async function changePassword(
  db: DB,
  userId: string,
  currentPassword: string,
  newPassword: string,
): Promise<boolean> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst()
  if (!row?.password_hash || !(await verifyPassword(row.password_hash, currentPassword))) return false
  const passwordHash = await hashPassword(newPassword)
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: clock.now() })
      .where('id', '=', userId)
      .execute()
    await invalidateUserSessions(trx, userId)
  })
  return true
}

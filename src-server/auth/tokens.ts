// Single-use, expiring tokens for e-mail verification, password reset and moving an account to a new address. Only SHA-256 of a token is stored;
// consuming one is a single UPDATE … WHERE unused AND unexpired, so a token can never be used twice.

import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { randomToken, sha256Hex } from '../kernel/random-token.ts'

export type TokenPurpose = 'verify_email' | 'reset_password' | 'confirm_action' | 'change_email'

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  verify_email: 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
  confirm_action: 15 * 60 * 1000,
  change_email: 60 * 60 * 1000,
}

export function hashToken(token: string): string {
  return sha256Hex(token)
}

/** The user's unused tokens of one purpose stop working. */
export async function deletePendingTokens(db: DB, userId: string, purpose: TokenPurpose): Promise<void> {
  await db
    .deleteFrom('auth_tokens')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute()
}

/** Issues a new token; earlier unused tokens of the same purpose stop working. */
export async function issueToken(
  db: DB,
  userId: string,
  purpose: TokenPurpose,
  now = clock.now(),
  /** 25 bytes (200 bits) for a link; a code typed by hand is shorter (and its checks rate-limited). */
  byteLength = 25,
): Promise<string> {
  await deletePendingTokens(db, userId, purpose)
  return insertToken(db, userId, purpose, now, byteLength)
}

/** What a sign-up chose, kept on its verification link until the address is proven (decision 0134). */
export interface SignupCredentials {
  passwordHash: string
  firstName: string
  lastName: string
  /** `hashToken` of the signing-up browser's cookie (auth/signup-browser.ts); null for a link issued without one. */
  browserHash: string | null
}

/** The columns of auth_tokens that hold a sign-up's credentials. */
const SIGNUP_COLUMNS = ['signup_password_hash', 'signup_first_name', 'signup_last_name', 'signup_browser_hash'] as const

/**
 * A verification link for one sign-up, carrying its credentials. Earlier sign-ups' links keep working: each applies
 * its own sign-up's password, so a stranger's sign-up with the same address cannot replace the owner's.
 */
export function issueSignupToken(db: DB, userId: string, signup: SignupCredentials, now = clock.now()) {
  return insertToken(db, userId, 'verify_email', now, 25, {
    signup_password_hash: signup.passwordHash,
    signup_first_name: signup.firstName,
    signup_last_name: signup.lastName,
    signup_browser_hash: signup.browserHash,
  })
}

/**
 * A link that moves the account to `newEmail` when used, mailed to that address (which it proves). The user's earlier
 * unused change links stop working: only the newest address asked for can be moved to.
 */
export async function issueEmailChangeToken(db: DB, userId: string, newEmail: string, now = clock.now()) {
  await deletePendingTokens(db, userId, 'change_email')
  return insertToken(db, userId, 'change_email', now, 25, { new_email: newEmail })
}

/** The address a live change link of the user waits to prove, or null. */
export async function pendingEmailChange(db: DB, userId: string, now = clock.now()) {
  const row = await db
    .selectFrom('auth_tokens')
    .select(['new_email', 'expires_at'])
    .where('user_id', '=', userId)
    .where('purpose', '=', 'change_email')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row?.new_email ? { email: row.new_email, expiresAt: row.expires_at } : null
}

/** Uses a change link: its user and the address it proves, or null when it is unknown, used or expired. */
export async function consumeEmailChangeToken(db: DB, token: string, now = clock.now()) {
  const row = await takeToken(db, token, 'change_email', now)
  return row?.new_email ? { userId: row.user_id, newEmail: row.new_email } : null
}

async function insertToken(
  db: DB,
  userId: string,
  purpose: TokenPurpose,
  now: Date,
  byteLength: number,
  /** What the link carries besides its user: a sign-up's credentials, or the address it moves the account to. */
  carried: Partial<Record<(typeof SIGNUP_COLUMNS)[number] | 'new_email', string | null>> = {},
): Promise<string> {
  const token = randomToken(byteLength)
  await db
    .insertInto('auth_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      expires_at: new Date(now.getTime() + TOKEN_TTL_MS[purpose]),
      ...carried,
    })
    .execute()
  return token
}

/**
 * The credentials of the user's newest live sign-up link (a resent link carries them on): of the sign-ups made in the
 * browser `browserHash` names when given, else of any.
 */
export async function newestSignupCredentials(db: DB, userId: string, browserHash?: string, now = clock.now()) {
  let query = db
    .selectFrom('auth_tokens')
    .select(SIGNUP_COLUMNS)
    .where('user_id', '=', userId)
    .where('purpose', '=', 'verify_email')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('signup_password_hash', 'is not', null)
  if (browserHash) query = query.where('signup_browser_hash', '=', browserHash)
  const row = await query.orderBy('created_at', 'desc').limit(1).executeTakeFirst()
  return signupOf(row)
}

/** Ends the pending verification links of the sign-ups one browser made (its resent link replaces them). */
export async function deleteSignupLinksOfBrowser(db: DB, userId: string, browserHash: string): Promise<void> {
  await db
    .deleteFrom('auth_tokens')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'verify_email')
    .where('used_at', 'is', null)
    .where('signup_browser_hash', '=', browserHash)
    .execute()
}

function signupOf(
  row:
    | {
        signup_password_hash: string | null
        signup_first_name: string | null
        signup_last_name: string | null
        signup_browser_hash: string | null
      }
    | undefined,
): SignupCredentials | null {
  if (!row?.signup_password_hash) return null
  return {
    passwordHash: row.signup_password_hash,
    firstName: row.signup_first_name ?? '',
    lastName: row.signup_last_name ?? '',
    browserHash: row.signup_browser_hash,
  }
}

/** A live verification link, not used: its user and the sign-up it carries; null when unknown, used or expired. */
export async function readVerificationToken(db: DB, token: string, now = clock.now()) {
  const row = await db
    .selectFrom('auth_tokens')
    .select(['user_id', ...SIGNUP_COLUMNS])
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', 'verify_email')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row ? { userId: row.user_id, signup: signupOf(row) } : null
}

/** Uses a verification link: its user and the sign-up it carries (null for links from before decision 0134). */
export async function consumeVerificationToken(db: DB, token: string, now = clock.now()) {
  const row = await takeToken(db, token, 'verify_email', now)
  return row ? { userId: row.user_id, signup: signupOf(row) } : null
}

/** Marks the token used and returns its user, or null when it is unknown, used, expired or of another purpose. */
export async function consumeToken(
  db: DB,
  token: string,
  purpose: TokenPurpose,
  now = clock.now(),
): Promise<string | null> {
  return (await takeToken(db, token, purpose, now))?.user_id ?? null
}

/** The one UPDATE … WHERE unused AND unexpired that uses a token: its row, or undefined. */
function takeToken(db: DB, token: string, purpose: TokenPurpose, now: Date) {
  return db
    .updateTable('auth_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'new_email', ...SIGNUP_COLUMNS])
    .executeTakeFirst()
}

/** Removes tokens used or expired before `before` (the retention job): they can never be used again anyway. */
export async function purgeSpentTokens(db: DB, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('auth_tokens')
    .where((eb) => eb.or([eb('used_at', '<', before), eb('expires_at', '<', before)]))
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

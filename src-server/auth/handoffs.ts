// A sign-in handed from the platform's host to a school's own domain (decision 0063), so a learner types their
// password only on the platform's address. The domain's browser keeps a random verifier in a host-only cookie and
// sends its SHA-256 (the challenge) to the platform; the signed-in platform issues a one-time code for that domain
// and challenge and posts it to the domain (never in a URL); the domain opens a session only when its browser's
// verifier matches the challenge, so a code carried into another browser (a forged sign-in) opens nothing.
// Only the code's SHA-256 is stored; it is used once, within a minute.
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeBase64urlNoPadding } from '@oslojs/encoding'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { randomToken } from '../kernel/random-token.ts'
import { lockAccountForSignIn } from './sign-in-lock.ts'
import { hashToken } from './tokens.ts'

export const HANDOFF_TTL_MS = 60_000
/** The challenge's shape: base64url of a SHA-256 (43 characters). */
export const HANDOFF_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

/** A new verifier for the domain's cookie, and the challenge the platform is told. */
export function newHandoffVerifier(): { verifier: string; challenge: string } {
  const verifier = randomToken(32)
  return { verifier, challenge: challengeOf(verifier) }
}

export function challengeOf(verifier: string): string {
  return encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier)))
}

/** The one-time code for `userId` on `siteHost`, bound to the challenge. */
export async function issueHandoff(
  db: DB,
  grant: { userId: string; siteHost: string; challenge: string; remember: boolean },
  now = clock.now(),
): Promise<string> {
  const code = randomToken(25)
  // Expired codes of anyone go as new ones are made: the table holds at most a minute's worth.
  await db.deleteFrom('sign_in_handoffs').where('expires_at', '<', now).execute()
  await db
    .insertInto('sign_in_handoffs')
    .values({
      code_hash: hashToken(code),
      user_id: grant.userId,
      site_host: grant.siteHost,
      challenge: grant.challenge,
      remember: grant.remember,
      expires_at: new Date(now.getTime() + HANDOFF_TTL_MS),
    })
    .execute()
  return code
}

/**
 * Uses the code on `siteHost` with the browser's verifier: the account and "remember me", or null when the code is
 * unknown, used, expired, ended, for another domain or another browser. A code is spent by its first try, right or
 * wrong. Run in the transaction that starts the session: it takes the account's sign-in lock first, so a rule ending
 * the account's sessions and codes (endHandoffsOf) comes wholly before or after (decision 0152).
 */
export async function redeemHandoff(
  trx: DB,
  code: string,
  siteHost: string,
  verifier: string | undefined,
  now = clock.now(),
): Promise<{ userId: string; remember: boolean } | null> {
  const holder = await trx
    .selectFrom('sign_in_handoffs')
    .select('user_id')
    .where('code_hash', '=', hashToken(code))
    .executeTakeFirst()
  if (!holder) return null
  await lockAccountForSignIn(trx, holder.user_id)
  const row = await trx
    .updateTable('sign_in_handoffs')
    .set({ used_at: now })
    .where('code_hash', '=', hashToken(code))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'site_host', 'challenge', 'remember'])
    .executeTakeFirst()
  if (!row || !verifier || row.site_host !== siteHost || row.challenge !== challengeOf(verifier)) return null
  return { userId: row.user_id, remember: row.remember }
}

/** Ends the account's codes not used yet: a rule now refuses the sign-in they were given by (decision 0152). */
export async function endHandoffsOf(db: DB, userId: string): Promise<void> {
  await db.deleteFrom('sign_in_handoffs').where('user_id', '=', userId).where('used_at', 'is', null).execute()
}

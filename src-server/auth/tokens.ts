// Single-use, expiring tokens for e-mail verification and password reset. Only SHA-256 of a token is stored;
// consuming one is a single UPDATE … WHERE unused AND unexpired, so a token can never be used twice.

import { sha256 } from '@oslojs/crypto/sha2'
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export type TokenPurpose = 'verify_email' | 'reset_password'

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  verify_email: 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
}

export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)))
}

/** Issues a new token; earlier unused tokens of the same purpose stop working. */
export async function issueToken(db: DB, userId: string, purpose: TokenPurpose, now = clock.now()): Promise<string> {
  const bytes = new Uint8Array(25) // 200 bits
  crypto.getRandomValues(bytes)
  const token = encodeBase32LowerCaseNoPadding(bytes)
  await db
    .deleteFrom('auth_tokens')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute()
  await db
    .insertInto('auth_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      expires_at: new Date(now.getTime() + TOKEN_TTL_MS[purpose]),
    })
    .execute()
  return token
}

/** Marks the token used and returns its user, or null when it is unknown, used, expired or of another purpose. */
export async function consumeToken(
  db: DB,
  token: string,
  purpose: TokenPurpose,
  now = clock.now(),
): Promise<string | null> {
  const row = await db
    .updateTable('auth_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst()
  return row?.user_id ?? null
}

// The first step of a two-step log-in: the password (or the OAuth provider) was right and the account has a second
// factor, so there is no session yet, only a pending log-in that lives 10 minutes in its own HttpOnly cookie. As for
// sessions, the token is "<id>.<secret>" and only SHA-256(secret) is stored.

import { sha256 } from '@oslojs/crypto/sha2'
import { constantTimeEqual } from '@oslojs/crypto/subtle'
import type { FastifyReply, FastifyRequest } from 'fastify'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { privateCookie } from '../kernel/private-cookie.ts'
import { randomToken } from '../kernel/random-token.ts'

export const PENDING_LOGIN_COOKIE = 'login_pending'
export const PENDING_LOGIN_TTL_MS = 10 * 60_000
const TOKEN_PART = /^[a-z2-7]{1,64}$/

const hash = (secret: string) => sha256(new TextEncoder().encode(secret))

export async function createPendingLogin(db: DB, userId: string, remember: boolean, now = clock.now()) {
  const id = randomToken(20)
  const secret = randomToken(20)
  const expiresAt = new Date(now.getTime() + PENDING_LOGIN_TTL_MS)
  // One pending log-in per user at a time, and none left over from earlier.
  await db.deleteFrom('pending_logins').where('user_id', '=', userId).execute()
  await db.deleteFrom('pending_logins').where('expires_at', '<', now).execute()
  await db
    .insertInto('pending_logins')
    .values({ id, user_id: userId, secret_hash: hash(secret), remember, expires_at: expiresAt })
    .execute()
  return { token: `${id}.${secret}`, expiresAt }
}

export interface PendingLogin {
  id: string
  userId: string
  remember: boolean
}

export async function readPendingLogin(
  db: DB,
  token: string | undefined,
  now = clock.now(),
): Promise<PendingLogin | null> {
  const [id, secret, extra] = (token ?? '').split('.')
  if (!id || !secret || extra !== undefined || !TOKEN_PART.test(id) || !TOKEN_PART.test(secret)) return null
  const row = await db
    .selectFrom('pending_logins')
    .select(['id', 'user_id', 'secret_hash', 'remember', 'expires_at'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row || !constantTimeEqual(hash(secret), new Uint8Array(row.secret_hash))) return null
  if (row.expires_at.getTime() <= now.getTime()) return null
  return { id: row.id, userId: row.user_id, remember: row.remember }
}

/** Ends the pending log-in; false when it had already ended (used, or ended by a rule). */
export async function endPendingLogin(db: DB, id: string): Promise<boolean> {
  const result = await db.deleteFrom('pending_logins').where('id', '=', id).executeTakeFirst()
  return result.numDeletedRows > 0n
}

export function setPendingLoginCookie(reply: FastifyReply, token: string, secure: boolean) {
  reply.setCookie(PENDING_LOGIN_COOKIE, token, privateCookie(secure, { maxAge: PENDING_LOGIN_TTL_MS / 1000 }))
}

export function clearPendingLoginCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(PENDING_LOGIN_COOKIE, privateCookie(secure))
}

export function pendingLoginToken(request: FastifyRequest | undefined): string | undefined {
  return request?.cookies[PENDING_LOGIN_COOKIE]
}

/** Removes half-finished log-ins that expired before `before` (the retention job). */
export async function purgeExpiredPendingLogins(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('pending_logins').where('expires_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Ends the account's half-finished log-in, if any (a school now requires its own sign-in of the account). */
export async function endPendingLoginsOf(db: DB, userId: string): Promise<void> {
  await db.deleteFrom('pending_logins').where('user_id', '=', userId).execute()
}

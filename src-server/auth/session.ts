// Sessions as in the lucia-auth.com guide: the token is "<id>.<secret>"; only SHA-256(secret) is stored and it
// is compared in constant time. Sessions last 30 days and slide forward when used in their second half.

import { sha256 } from '@oslojs/crypto/sha2'
import { constantTimeEqual } from '@oslojs/crypto/subtle'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { randomToken } from '../kernel/random-token.ts'
import { SESSION_USER_COLUMNS, toSessionUser } from './session-user.ts'
import type { SessionInfo, SessionUser } from './types.ts'

export const SESSION_COOKIE = 'session'
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000
const REFRESH_WHEN_LEFT_MS = SESSION_TTL_MS / 2
const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000
/** Both halves of a token are lower-case base32 (randomString); anything else is no session, never a query. */
const TOKEN_PART = /^[a-z2-7]{1,64}$/

function hashSecret(secret: string): Uint8Array {
  return sha256(new TextEncoder().encode(secret))
}

export interface CreatedSession {
  token: string
  session: SessionInfo & { remember: boolean }
}

/** What the sessions list shows of where a session started (auth/devices.ts). */
export interface SessionOrigin {
  userAgent?: string | null
  ipNetwork?: string | null
  /** The school domain it is made on (kernel/hosts.ts sessionSiteOf); none for the platform's host. */
  siteHost?: string | null
}

export async function createSession(
  db: DB,
  userId: string,
  remember = true,
  now = clock.now(),
  origin: SessionOrigin = {},
): Promise<CreatedSession> {
  // 160 bits of entropy each.
  const id = randomToken(20)
  const secret = randomToken(20)
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS)
  await db
    .insertInto('sessions')
    .values({
      id,
      user_id: userId,
      secret_hash: hashSecret(secret),
      remember,
      expires_at: expiresAt,
      last_seen_at: now,
      user_agent: origin.userAgent?.slice(0, 512) ?? null,
      ip_network: origin.ipNetwork ?? null,
      site_host: origin.siteHost ?? null,
    })
    .execute()
  return { token: `${id}.${secret}`, session: { id, expiresAt, remember } }
}

export interface ValidatedSession {
  user: SessionUser
  session: SessionInfo & { remember: boolean }
  /** True when the expiry moved forward, so the cookie must be sent again. */
  refreshed: boolean
}

/**
 * The session of a token presented on `site` (kernel/hosts.ts sessionSiteOf: null for the platform's host). A session
 * made on a school's domain is accepted there only: the domain's owner controls where its name points, so a token
 * that passed through it must not open the account on the platform or on another school's domain.
 */
export async function validateSessionToken(
  db: DB,
  token: string,
  now = clock.now(),
  site: string | null = null,
): Promise<ValidatedSession | null> {
  const [id, secret, extra] = token.split('.')
  if (!id || !secret || extra !== undefined || !TOKEN_PART.test(id) || !TOKEN_PART.test(secret)) return null

  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('user_totp', (join) =>
      join.onRef('user_totp.user_id', '=', 'sessions.user_id').on('user_totp.confirmed_at', 'is not', null),
    )
    .select([
      'user_totp.confirmed_at as two_factor_since',
      ...SESSION_USER_COLUMNS,
      'sessions.id as session_id',
      'sessions.secret_hash',
      'sessions.remember',
      'sessions.expires_at',
      'sessions.last_seen_at',
      'sessions.site_host',
    ])
    .where('sessions.id', '=', id)
    // A suspended account's sessions open nothing, even one a sign-in racing the suspension made (decision 0160).
    .where('users.suspended_at', 'is', null)
    .executeTakeFirst()
  if (!row) return null
  if (!constantTimeEqual(hashSecret(secret), new Uint8Array(row.secret_hash))) return null
  if (row.site_host !== site) return null
  if (row.expires_at.getTime() <= now.getTime()) {
    await invalidateSession(db, id)
    return null
  }

  let expiresAt = row.expires_at
  const refreshed = expiresAt.getTime() - now.getTime() < REFRESH_WHEN_LEFT_MS
  if (refreshed) expiresAt = new Date(now.getTime() + SESSION_TTL_MS)
  const seenLongAgo = now.getTime() - row.last_seen_at.getTime() > LAST_SEEN_RESOLUTION_MS
  if (refreshed || seenLongAgo) {
    await db.updateTable('sessions').set({ expires_at: expiresAt, last_seen_at: now }).where('id', '=', id).execute()
  }

  return {
    user: { ...toSessionUser(row), twoFactorEnabled: row.two_factor_since !== null },
    session: { id: row.session_id, expiresAt, remember: row.remember },
    refreshed,
  }
}

export async function invalidateSession(db: DB, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute()
}

/** Ends every session of a user (password change or reset, removal from the team). */
export async function invalidateUserSessions(db: DB, userId: string, exceptSessionId?: string): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId)
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId)
  await query.execute()
}

/**
 * Ends every session made on a school's domain (`site_host`): the domain no longer serves the school (its proof
 * lapsed, decision 0063), so whoever points the name now must find no session there. Returns how many ended.
 */
export async function endSiteSessions(db: DB, siteHost: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('site_host', '=', siteHost).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Removes sessions that expired before `before` (the retention job; a visit would have removed each anyway). */
export async function purgeExpiredSessions(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}

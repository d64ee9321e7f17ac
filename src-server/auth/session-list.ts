// A user's own signed-in sessions, as the security page lists them, and ending them. Every query is scoped to the
// user: a session id of someone else's is as unknown as a made-up one.
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { describeUserAgent } from './devices.ts'

export interface SessionListItem {
  id: string
  browser: string
  system: string
  /** "203.0.113.0/24": the network only, the nearest we say to a place (no geolocation service). */
  network: string | null
  signedInAt: Date
  lastActiveAt: Date
  current: boolean
}

export async function listSessions(
  db: DB,
  userId: string,
  currentSessionId: string,
  now = clock.now(),
): Promise<SessionListItem[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'user_agent', 'ip_network', 'created_at', 'last_seen_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .orderBy('id')
    .limit(100)
    .execute()
  return rows
    .map((row) => ({
      id: row.id,
      ...describeUserAgent(row.user_agent),
      network: row.ip_network,
      signedInAt: row.created_at,
      lastActiveAt: row.last_seen_at,
      current: row.id === currentSessionId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current))
}

/** How many unexpired sessions the user has, and the latest activity among them (null without any). */
export async function sessionSummary(db: DB, userId: string, now = clock.now()) {
  const row = await db
    .selectFrom('sessions')
    .select(({ fn }) => [fn.countAll<number>().as('count'), fn.max('last_seen_at').as('lastSeenAt')])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow()
  return { count: Number(row.count), lastSeenAt: row.lastSeenAt ? new Date(row.lastSeenAt) : null }
}

/** Ends one of the user's sessions; false when the user has no session with that id. */
export async function endOwnSession(db: DB, userId: string, sessionId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/** Ends every session of the user but `keepSessionId`; how many ended. */
export async function endOtherSessions(db: DB, userId: string, keepSessionId: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('id', '!=', keepSessionId)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

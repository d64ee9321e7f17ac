// Who is at the live chat desk (decision 0102): an editor's or admin's desk page says so every 30 seconds, and the
// chat counts as staffed while anyone available has within DESK_PRESENCE_MS. Nodes stay stateless: the mark is a row.
// "Available for chats" is kept on the same row, per staff member, until they change it: a return to the desk keeps
// their choice, and a heartbeat never makes someone who stepped away present again.
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

/** How long a mark holds: four missed beats of the desk's 30-second heartbeat. */
export const DESK_PRESENCE_MS = 2 * 60_000

/** The staff member has the desk open now (their availability stays as they last set it; at first, available). */
export async function markAtDesk(db: DB, staffId: string, now = clock.now()): Promise<{ available: boolean }> {
  const row = await db
    .insertInto('chat_desk_presence')
    .values({ user_id: staffId, seen_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ seen_at: now }))
    .returning('available')
    .executeTakeFirstOrThrow()
  return { available: row.available }
}

/** Whether anyone available has had the desk open within DESK_PRESENCE_MS of `now`. */
export async function deskStaffed(db: DB, now = clock.now()): Promise<boolean> {
  const row = await db
    .selectFrom('chat_desk_presence')
    .select('user_id')
    .where('available', '=', true)
    .where('seen_at', '>', new Date(now.getTime() - DESK_PRESENCE_MS))
    .where('seen_at', '<=', now)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** The staff member's "Available for chats", as they last set it (never set: available). */
export async function deskAvailability(db: DB, staffId: string): Promise<{ available: boolean }> {
  const row = await db
    .selectFrom('chat_desk_presence')
    .select('available')
    .where('user_id', '=', staffId)
    .executeTakeFirst()
  return { available: row?.available ?? true }
}

/**
 * "Available for chats" ticked or unticked, kept until they change it. Unticked, the chat no longer counts them at once;
 * ticked (from the open desk), they count from now.
 */
export async function setDeskAvailability(
  db: DB,
  staffId: string,
  available: boolean,
  now = clock.now(),
): Promise<{ available: boolean }> {
  await db
    .insertInto('chat_desk_presence')
    .values({ user_id: staffId, seen_at: available ? now : new Date(0), available })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(available ? { available, seen_at: now } : { available }))
    .execute()
  return { available }
}

// Who is at the live chat desk (decision 0102): an editor's or admin's desk page says so every 30 seconds, and the
// chat counts as staffed while anyone has within DESK_PRESENCE_MS. Nodes stay stateless: the mark is a row.
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

/** How long a mark holds: four missed beats of the desk's 30-second heartbeat. */
export const DESK_PRESENCE_MS = 2 * 60_000

/** The staff member has the desk open now. */
export async function markAtDesk(db: DB, staffId: string, now = clock.now()): Promise<void> {
  await db
    .insertInto('chat_desk_presence')
    .values({ user_id: staffId, seen_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ seen_at: now }))
    .execute()
}

/** Whether anyone has had the desk open within DESK_PRESENCE_MS of `now`. */
export async function deskStaffed(db: DB, now = clock.now()): Promise<boolean> {
  const row = await db
    .selectFrom('chat_desk_presence')
    .select('user_id')
    .where('seen_at', '>', new Date(now.getTime() - DESK_PRESENCE_MS))
    .where('seen_at', '<=', now)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** The staff member steps away (the desk's "Available for chats" unticked): the chat no longer counts them. */
export async function leaveDesk(db: DB, staffId: string): Promise<void> {
  await db.deleteFrom('chat_desk_presence').where('user_id', '=', staffId).execute()
}

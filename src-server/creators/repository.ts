// Creators: customer accounts approved to teach (a capability, never a staff role), each with an instructor profile.
import type { DB } from '../kernel/db.ts'

export interface Creator {
  userId: string
  instructorId: string
}

export async function findCreator(db: DB, userId: string): Promise<Creator | null> {
  const row = await db
    .selectFrom('creators')
    .select(['user_id', 'instructor_id'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row ? { userId: row.user_id, instructorId: row.instructor_id } : null
}

export async function isCreator(db: DB, userId: string): Promise<boolean> {
  return (await findCreator(db, userId)) !== null
}

// Whom a mail or a document is about: a person's address and names, read by their id (receipts, invoices, refunds,
// gifts, chat transcripts, statements, live session invitations, the course review queue).
import type { DB } from '../kernel/db.ts'

export function userContact(db: DB, userId: string) {
  return db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', userId).executeTakeFirst()
}

/** The same for someone a row names by its foreign key, who must exist. */
export async function existingUserContact(db: DB, userId: string) {
  const contact = await userContact(db, userId)
  if (!contact) throw new Error(`No user ${userId}`)
  return contact
}

/**
 * The addresses and first names of those of these people who take their courses' news by e-mail (a live session's
 * announcement to a course's holders); one who turned it off on their account page is left out.
 */
export function courseNewsContacts(db: DB, userIds: readonly string[]) {
  if (userIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('users')
    .select(['id', 'email', 'first_name'])
    .where('id', 'in', [...userIds])
    .where('course_update_mails', '=', true)
    .execute()
}

// Staff's notes about a customer (decision 0161): support's memory of a person across agents ("refund agreed on the
// phone", "writes in German"). contact/ owns customer_notes; the customer page reads and writes them.
import type { DB } from '../kernel/db.ts'

/** A customer's notes, newest first, each with its author's address (staff read them; the author may be gone). */
export function notesAbout(db: DB, userId: string) {
  return db
    .selectFrom('customer_notes as n')
    .leftJoin('users as author', 'author.id', 'n.author_id')
    .select(['n.id', 'n.body', 'n.created_at as createdAt', 'n.author_id as authorId', 'author.email as authorEmail'])
    .where('n.user_id', '=', userId)
    .orderBy('n.created_at', 'desc')
    .execute()
}

export async function addNote(db: DB, note: { userId: string; authorId: string; body: string }) {
  return db
    .insertInto('customer_notes')
    .values({ user_id: note.userId, author_id: note.authorId, body: note.body })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/** The note's customer and author, or undefined. */
export function noteById(db: DB, noteId: string) {
  return db
    .selectFrom('customer_notes')
    .select(['id', 'user_id', 'author_id'])
    .where('id', '=', noteId)
    .executeTakeFirst()
}

export async function deleteNote(db: DB, noteId: string) {
  await db.deleteFrom('customer_notes').where('id', '=', noteId).execute()
}

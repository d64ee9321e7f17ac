// An erased account's creator side (decision 0053): the public instructor profile stays for the courses' learners,
// anonymised and run by the house; applications are deleted. Returns the attachments' storage keys to remove.
import type { DB } from '../kernel/db.ts'

export async function anonymiseCreator(db: DB, userId: string): Promise<string[]> {
  await db
    .updateTable('instructors')
    .set({ name: 'Former instructor', title: '', bio: '', links: '{}', user_id: null })
    .where('user_id', '=', userId)
    .execute()
  const applications = await db
    .deleteFrom('creator_applications')
    .where('user_id', '=', userId)
    .returning('attachment')
    .execute()
  return applications.flatMap((row) => (row.attachment ? [row.attachment.key] : []))
}

// Courses in Premium, as the catalogue knows them: whether a course is included (it then opens to Premium members,
// flows/lesson-access.ts) and who owns it. The studio's owner switches it (course-switches.ts); staff
// switch it in the admin course dialog.
import type { DB } from '../kernel/db.ts'

/** Each of these courses' owner (null: a house course) and whether it is in Premium now. */
export async function premiumCourseFacts(
  db: DB,
  courseIds: readonly string[],
): Promise<Map<string, { ownerId: string | null; title: string; included: boolean }>> {
  if (courseIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('courses')
    .select(['id', 'owner_id', 'title', 'included_in_premium'])
    .where('id', 'in', courseIds)
    .execute()
  return new Map(
    rows.map((row) => [row.id, { ownerId: row.owner_id, title: row.title, included: row.included_in_premium }]),
  )
}

/** The creator's own courses in Premium now (title order). */
export function ownedPremiumCourses(db: DB, ownerId: string) {
  return db
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('owner_id', '=', ownerId)
    .where('included_in_premium', '=', true)
    .orderBy('title')
    .execute()
}

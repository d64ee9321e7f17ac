// The courses' denormalised students_count: catalog owns the column (cards and the course page show it); access/
// counts the learners behind it and sets it in the same transaction as each change of the ledger.
import type { DB } from '../db.ts'

/**
 * Locks the courses' rows (FOR NO KEY UPDATE) for the rest of the caller's transaction (in id order, so two transactions locking
 * overlapping sets cannot deadlock), so concurrent ledger changes of one course take turns and each counts the
 * others' committed grants. Returns the ids that exist.
 */
export async function lockCoursesForCounts(trx: DB, courseIds: readonly string[]): Promise<string[]> {
  if (courseIds.length === 0) return []
  const rows = await trx
    .selectFrom('courses')
    .select('id')
    .where('id', 'in', [...new Set(courseIds)])
    .orderBy('id')
    // Not FOR UPDATE: the grant just inserted holds FOR KEY SHARE on its course (the foreign key), and two buyers'
    // KEY SHARE locks would then deadlock each other's FOR UPDATE. NO KEY UPDATE still makes them take turns.
    .forNoKeyUpdate()
    .execute()
  return rows.map((row) => row.id)
}

export async function setStudentsCount(trx: DB, courseId: string, count: number): Promise<void> {
  await trx
    .updateTable('courses')
    .set({ students_count: count })
    .where('id', '=', courseId)
    // An unchanged number writes no row version.
    .where('students_count', '!=', count)
    .execute()
}

// The course detail page's data: the published course and its curriculum outline (titles only, never content).
import type { DB } from '../kernel/db.ts'
import { findPublishedCourse } from './repository.ts'
import { readCurriculum } from './repository-lessons.ts'

export async function findPublishedCourseWithCurriculum(db: DB, id: string) {
  const row = await findPublishedCourse(db, id)
  if (!row) return undefined
  return { row, curriculum: await readCurriculum(db, id) }
}

// The catalogue's answers about a creator's own courses (the courses they own; co-instructed ones are not counted).
import type { DB } from '../kernel/db.ts'

/** Courses that use a publishing slot of the owner's plan: on sale, or submitted to go on sale. */
export async function countPublishingSlotsUsed(db: DB, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('courses')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('status', 'in', ['published', 'in_review'])
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The creator who owns each of these courses (house courses, owned by nobody, are left out). */
export async function courseOwners(db: DB, courseIds: readonly string[]): Promise<Map<string, string>> {
  if (courseIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('courses')
    .select(['id', 'owner_id'])
    .where('id', 'in', courseIds)
    .where('owner_id', 'is not', null)
    .execute()
  return new Map(rows.map((row) => [row.id, row.owner_id as string]))
}

/** One page of the courses the owner owns (archived ones left out), by id after `after` (the REST API's cursor). */
export async function ownerCoursesAfter(db: DB, ownerId: string, after: string | null, limit: number) {
  let query = db
    .selectFrom('courses')
    .select([
      'id',
      'title',
      'subtitle',
      'status',
      'price_minor',
      'currency',
      'price_usd_minor',
      'price_gbp_minor',
      'lessons_count',
      'students_count',
      'published_at',
      'updated_at',
    ])
    .where('owner_id', '=', ownerId)
    .where('status', '!=', 'archived')
  if (after !== null) query = query.where('id', '>', after)
  return query.orderBy('id').limit(limit).execute()
}

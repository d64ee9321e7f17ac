// Categories as staff see them (with real course counts) and their changes, audited in the same transaction.

import { sql } from 'kysely'
import * as audit from '../audit/repository.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { isForeignKeyViolation } from '../kernel/pg-errors.ts'
import { slugify } from './course-editing.ts'

export async function listAdminCategories(db: DB) {
  const rows = await db
    .selectFrom('categories')
    .leftJoin('courses', (join) =>
      join.onRef('courses.category_id', '=', 'categories.id').on('courses.status', '!=', 'archived'),
    )
    .select([
      'categories.id',
      'categories.name',
      'categories.slug',
      'categories.description',
      sql<string>`count(courses.id)`.as('courses_count'),
    ])
    .groupBy('categories.id')
    .orderBy('categories.position')
    .orderBy('categories.name')
    .execute()
  return rows.map(({ courses_count, ...category }) => ({ ...category, coursesCount: Number(courses_count) }))
}

async function assertNameFree(db: DB, name: string, exceptId?: string) {
  let query = db
    .selectFrom('categories')
    .select('id')
    .where((eb) => eb.or([eb(eb.fn('lower', ['name']), '=', name.toLowerCase()), eb('slug', '=', slugify(name))]))
  if (exceptId) query = query.where('id', '!=', exceptId)
  if (await query.executeTakeFirst()) {
    throw new DomainError('conflict', 'A category with this name already exists', { field: 'name' })
  }
}

async function findCategory(db: DB, id: string) {
  const row = await db
    .selectFrom('categories')
    .select(['id', 'name', 'slug', 'description'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw new DomainError('not_found', 'Category not found')
  return row
}

export async function createCategory(db: DB, actor: audit.Actor, input: { name: string; description: string }) {
  await assertNameFree(db, input.name)
  return db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom('categories')
      .select((eb) => eb.fn.max('position').as('max'))
      .executeTakeFirst()
    const row = await trx
      .insertInto('categories')
      .values({
        name: input.name,
        slug: slugify(input.name),
        description: input.description,
        icon: 'book',
        position: Number(last?.max ?? 0) + 1,
      })
      .returning(['id', 'name', 'slug', 'description'])
      .executeTakeFirstOrThrow()
    await audit.record(trx, actor, 'category.create', { type: 'category', id: row.id, after: row })
    return row
  })
}

/** Renames or re-describes a category. The slug (used in public URLs) stays, so links keep working. */
export async function updateCategory(
  db: DB,
  actor: audit.Actor,
  input: { id: string; name: string; description: string },
) {
  const before = await findCategory(db, input.id)
  await assertNameFree(db, input.name, input.id)
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('categories')
      .set({ name: input.name, description: input.description })
      .where('id', '=', input.id)
      .returning(['id', 'name', 'slug', 'description'])
      .executeTakeFirstOrThrow()
    await audit.record(trx, actor, 'category.update', { type: 'category', id: row.id, before, after: row })
    return row
  })
}

async function categoryUsage(db: DB, id: string) {
  const row = await db
    .selectNoFrom([
      sql<string>`(select count(*) from courses where category_id = ${id} and status != 'archived')`.as('courses'),
      sql<string>`(select count(*) from courses where category_id = ${id} and status = 'archived')`.as('archived'),
      sql<string>`(select count(*) from services where category_id = ${id})`.as('services'),
    ])
    .executeTakeFirstOrThrow()
  return { courses: Number(row.courses), archived: Number(row.archived), services: Number(row.services) }
}

const plural = (count: number, noun: string) => (count === 1 ? `1 ${noun} uses` : `${count} ${noun}s use`)
const IN_USE = 'This category is in use and cannot be deleted.'

export async function deleteCategory(db: DB, actor: audit.Actor, id: string) {
  const before = await findCategory(db, id)
  const usage = await categoryUsage(db, id)
  const refuse = (message: string) => new DomainError('conflict', message)
  const move = 'Move them to another category first.'
  if (usage.courses > 0)
    throw refuse(`This category cannot be deleted while ${plural(usage.courses, 'course')} it. ${move}`)
  if (usage.services > 0)
    throw refuse(`This category cannot be deleted while ${plural(usage.services, 'service')} it. ${move}`)
  if (usage.archived > 0)
    throw refuse('This category cannot be deleted: archived courses that customers bought use it.')
  try {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('categories').where('id', '=', id).execute()
      await audit.record(trx, actor, 'category.delete', { type: 'category', id, before })
    })
  } catch (error) {
    // A course added to it in the meantime: the foreign key refuses, and so do we.
    if (isForeignKeyViolation(error)) throw refuse(IN_USE)
    throw error
  }
}

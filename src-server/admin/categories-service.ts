// Categories as staff see them (with real course counts) and their changes, audited in the same transaction.
import { TRPCError } from '@trpc/server'
import { sql } from 'kysely'
import type { DB } from '../db.ts'
import { type Actor, writeAudit } from './audit.ts'
import { slugify } from './courses-service.ts'

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
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    coursesCount: Number(row.courses_count),
  }))
}

async function assertNameFree(db: DB, name: string, exceptId?: string) {
  let query = db
    .selectFrom('categories')
    .select('id')
    .where((eb) => eb.or([eb(eb.fn('lower', ['name']), '=', name.toLowerCase()), eb('slug', '=', slugify(name))]))
  if (exceptId) query = query.where('id', '!=', exceptId)
  if (await query.executeTakeFirst()) {
    throw new TRPCError({ code: 'CONFLICT', message: 'A category with this name already exists' })
  }
}

async function findCategory(db: DB, id: string) {
  const row = await db
    .selectFrom('categories')
    .select(['id', 'name', 'slug', 'description'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Category not found' })
  return row
}

export async function createCategory(db: DB, actor: Actor, input: { name: string; description: string }) {
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
    await writeAudit(trx, actor, { action: 'category.create', entityType: 'category', entityId: row.id, after: row })
    return row
  })
}

/** Renames or re-describes a category. The slug (used in public URLs) stays, so links keep working. */
export async function updateCategory(db: DB, actor: Actor, input: { id: string; name: string; description: string }) {
  const before = await findCategory(db, input.id)
  await assertNameFree(db, input.name, input.id)
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('categories')
      .set({ name: input.name, description: input.description })
      .where('id', '=', input.id)
      .returning(['id', 'name', 'slug', 'description'])
      .executeTakeFirstOrThrow()
    await writeAudit(trx, actor, {
      action: 'category.update',
      entityType: 'category',
      entityId: row.id,
      before,
      after: row,
    })
    return row
  })
}

export async function deleteCategory(db: DB, actor: Actor, id: string) {
  const before = await findCategory(db, id)
  const [courses, services] = await Promise.all([
    db
      .selectFrom('courses')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('category_id', '=', id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('services')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('category_id', '=', id)
      .executeTakeFirstOrThrow(),
  ])
  const courseCount = Number(courses.n)
  const serviceCount = Number(services.n)
  if (courseCount > 0 || serviceCount > 0) {
    const [count, noun] = courseCount > 0 ? [courseCount, 'course'] : [serviceCount, 'service']
    const uses = count === 1 ? `1 ${noun} uses` : `${count} ${noun}s use`
    throw new TRPCError({
      code: 'CONFLICT',
      message: `This category cannot be deleted while ${uses} it. Move them to another category first.`,
    })
  }
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('categories').where('id', '=', id).execute()
    await writeAudit(trx, actor, { action: 'category.delete', entityType: 'category', entityId: id, before })
  })
}

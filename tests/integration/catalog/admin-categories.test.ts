// Manage Categories: real counts, add/edit/delete, the refusal while courses use a category, the audit record.
import type { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { messageOf } from '../../support/outcome.ts'

let database: DatabaseHandle
let editor: TestUser
const asEditor = () => callerAs(database.db, editor)

beforeAll(async () => {
  database = await createTestDatabase()
  editor = await createUser(database.db, { role: 'editor' })
})
afterAll(async () => {
  await database.close()
})

describe('admin.categories', () => {
  it('lists every category with the number of its courses counted in the database', async () => {
    const list = await (await asEditor()).admin.categories.list()
    const rows = await database.db
      .selectFrom('courses')
      .select('category_id')
      .where('status', '!=', 'archived')
      .execute()
    // Every category in the table (other tests in this file may have added some), the seed's six among them.
    const slugs = (await database.db.selectFrom('categories').select('slug').execute()).map((r) => r.slug)
    expect(list.map((c) => c.slug).sort()).toEqual(slugs.sort())
    expect(slugs).toEqual(
      expect.arrayContaining(['business', 'company-formation', 'consultancy', 'design', 'development', 'marketing']),
    )
    for (const category of list) {
      expect(category.coursesCount).toBe(rows.filter((r) => r.category_id === category.id).length)
    }
    expect(list.some((c) => c.coursesCount > 0)).toBe(true)
  })

  it('adds a category; the name is required with a clear message; duplicates are refused', async () => {
    const caller = await asEditor()
    const error = await caller.admin.categories.create({ name: '  ', description: '' }).catch((e: TRPCError) => e)
    expect(((error as TRPCError).cause as unknown as { issues: { message: string }[] }).issues[0]?.message).toBe(
      'Category name is required',
    )
    const created = await caller.admin.categories.create({ name: 'Data Science', description: 'Numbers' })
    expect(created).toMatchObject({ name: 'Data Science', slug: 'data-science', description: 'Numbers' })
    expect(await messageOf(caller.admin.categories.create({ name: 'data science' }))).toBe(
      'A category with this name already exists',
    )
    const list = await caller.admin.categories.list()
    expect(list.find((c) => c.id === created.id)?.coursesCount).toBe(0)
  })

  it('edits a category (the slug stays so public links keep working)', async () => {
    const caller = await asEditor()
    const created = await caller.admin.categories.create({ name: 'Photography', description: '' })
    const updated = await caller.admin.categories.update({
      id: created.id,
      name: 'Photo & Video',
      description: 'Lenses',
    })
    expect(updated).toMatchObject({ name: 'Photo & Video', description: 'Lenses', slug: 'photography' })
    const audit = await database.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('entity_id', '=', created.id)
      .where('action', '=', 'category.update')
      .executeTakeFirstOrThrow()
    expect(audit.before).toMatchObject({ name: 'Photography' })
    expect(audit.after).toMatchObject({ name: 'Photo & Video' })
  })

  it('refuses to delete a category while courses use it, and deletes an unused one', async () => {
    const caller = await asEditor()
    const used = (await caller.admin.categories.list()).find((c) => c.slug === 'development')!
    const message = await messageOf(caller.admin.categories.delete({ id: used.id }))
    expect(message).toMatch(
      /^This category cannot be deleted while \d+ courses? uses? it\. Move them to another category first\.$/,
    )
    expect(
      await database.db.selectFrom('categories').select('id').where('id', '=', used.id).executeTakeFirst(),
    ).toEqual({ id: used.id })

    const unused = await caller.admin.categories.create({ name: 'Temporary', description: '' })
    await caller.admin.categories.delete({ id: unused.id })
    expect((await caller.admin.categories.list()).some((c) => c.id === unused.id)).toBe(false)
  })

  it('explains a refusal caused only by archived courses (kept for order history)', async () => {
    const caller = await asEditor()
    const category = await caller.admin.categories.create({ name: 'Retired', description: '' })
    const course = await caller.admin.courses.create({
      title: 'Old course',
      description: 'Sold once.',
      price: '10',
      categoryId: category.id,
    })
    await database.db.updateTable('courses').set({ status: 'archived' }).where('id', '=', course.id).execute()
    expect((await caller.admin.categories.list()).find((c) => c.id === category.id)?.coursesCount).toBe(0)
    expect(await messageOf(caller.admin.categories.delete({ id: category.id }))).toBe(
      'This category cannot be deleted: archived courses that customers bought use it.',
    )
  })
})

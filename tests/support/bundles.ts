// Bundles for the tests (integration and e2e): a published bundle of courses made in the database, as staff's would be.
import { randomBytes } from 'node:crypto'
import type { DB } from '../../src-server/kernel/db.ts'

export async function seedBundle(
  db: DB,
  options: {
    courseIds: string[]
    priceMinor: number
    title?: string
    slug?: string
    ownerId?: string | null
    currency?: 'USD' | 'GBP'
  },
) {
  const slug = options.slug ?? `bundle-${randomBytes(4).toString('hex')}`
  const row = await db
    .insertInto('bundles')
    .values({
      slug,
      title: options.title ?? `Bundle ${slug.slice(-8)}`,
      description: 'Courses that go well together, at one price.',
      owner_id: options.ownerId ?? null,
      currency: options.currency ?? 'USD',
      price_minor: options.priceMinor,
      published: true,
      created_by: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('bundle_courses')
    .values(options.courseIds.map((courseId, position) => ({ bundle_id: row.id, course_id: courseId, position })))
    .execute()
  return { id: row.id, slug }
}

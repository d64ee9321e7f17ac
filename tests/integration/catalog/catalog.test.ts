import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { createTestDatabase } from '../../support/db.ts'

let database: DatabaseHandle
const visitor = () => createCaller(createContextInner({ db: database.db, user: null, session: null }))

// Tests below change the featured flags; each starts from the seed's flags, so they run in any order.
let seedFeatured: string[]
beforeAll(async () => {
  database = await createTestDatabase()
  seedFeatured = (await database.db.selectFrom('courses').select('id').where('featured', '=', true).execute()).map(
    (r) => r.id,
  )
})
beforeEach(async () => {
  await database.db.updateTable('courses').set({ featured: false }).execute()
  await database.db.updateTable('courses').set({ featured: true }).where('id', 'in', seedFeatured).execute()
})
afterAll(async () => {
  await database.close()
})

describe('catalog.featuredCourses', () => {
  it('returns only published courses flagged featured, with money in minor units', async () => {
    const courses = await visitor().catalog.featuredCourses()
    expect(courses.map((c) => c.id)).toEqual([
      'python-data-analysis',
      'website-seo',
      'modern-react-typescript',
      'ui-ux-design-figma',
      'uk-limited-company-formation',
      'ai-for-content-creators',
    ])
    const rows = await database.db.selectFrom('courses').select(['id', 'status', 'featured']).execute()
    const expected = rows.filter((r) => r.status === 'published' && r.featured).map((r) => r.id)
    expect(courses.map((c) => c.id).sort()).toEqual(expected.sort())
    for (const course of courses) {
      expect(Number.isInteger(course.priceMinor)).toBe(true)
      expect(course.currency).toBe('USD')
    }
  })

  it('falls back to the first 4 published courses when none is featured', async () => {
    await database.db.updateTable('courses').set({ featured: false }).execute()
    const courses = await visitor().catalog.featuredCourses()
    expect(courses).toHaveLength(4)
    const firstFour = await database.db
      .selectFrom('courses')
      .select('id')
      .where('status', '=', 'published')
      .orderBy('created_at', 'asc')
      .limit(4)
      .execute()
    expect(courses.map((c) => c.id)).toEqual(firstFour.map((r) => r.id))
  })

  it('never shows a draft course, even when flagged featured', async () => {
    const draft = await database.db
      .selectFrom('courses')
      .select('id')
      .where('status', '=', 'draft')
      .executeTakeFirstOrThrow()
    await database.db.updateTable('courses').set({ featured: true }).where('id', '=', draft.id).execute()
    const courses = await visitor().catalog.featuredCourses()
    expect(courses.map((c) => c.id)).not.toContain(draft.id)
  })

  it('refuses bad input as BAD_REQUEST with field messages, not a 500', async () => {
    const error = await visitor()
      .catalog.featuredCourses({ limit: 1000 })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TRPCError)
    expect((error as TRPCError).code).toBe('BAD_REQUEST')
  })
})

describe('catalog.course', () => {
  it('returns the full detail of a published course', async () => {
    const course = await visitor().catalog.course({ id: 'website-seo' })
    expect(course?.title).toBe('Website SEO: Rank Higher on Google and Grow Organic Traffic')
    expect(course?.curriculum).toHaveLength(5)
    expect(course?.whatYouWillLearn).toHaveLength(6)
    expect(course?.priceMinor).toBe(6999)
  })
  it('returns null for an unknown id', async () => {
    expect(await visitor().catalog.course({ id: 'no-such-course' })).toBeNull()
  })
})

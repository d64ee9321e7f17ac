import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedDatabase, seedIfEmpty } from '../../../db/seed/index.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

async function counts() {
  const tables = [
    'categories',
    'instructors',
    'courses',
    'services',
    'service_packages',
    'plans',
    'plan_comparison_features',
    'testimonials',
    'promo_videos',
    'users',
    'access_grants',
    'course_reviews',
  ] as const
  const result: Record<string, number> = {}
  for (const table of tables) {
    const row = await database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
    result[table] = Number(row.n)
  }
  return result
}

describe('seed', () => {
  it('holds the spec catalogue: five services with every package price, three plans', async () => {
    const packages = await database.db
      .selectFrom('service_packages')
      .select(['service_id', 'price_minor', 'currency'])
      .orderBy('service_id')
      .orderBy('position')
      .execute()
    const byService = (id: string) => packages.filter((p) => p.service_id === id)
    expect(byService('uk-company-formation').map((p) => [p.price_minor, p.currency])).toEqual([
      [30000, 'GBP'],
      [45000, 'GBP'],
    ])
    const usa = byService('usa-company-formation')
    expect(usa).toHaveLength(7)
    expect(usa[0]?.price_minor).toBe(35000)
    expect(usa[6]?.price_minor).toBe(120000)
    expect(byService('company-consultancy').map((p) => p.price_minor)).toEqual([15000, 25000, 50000])
    expect(byService('seo-audit').map((p) => p.price_minor)).toEqual([19900, 39900, 79900])
    expect(byService('seo-management').map((p) => p.price_minor)).toEqual([49900, 99900, 199900])

    const plans = await database.db
      .selectFrom('plans')
      .select(['id', 'monthly_price_minor', 'annual_price_minor', 'is_popular'])
      .orderBy('position')
      .execute()
    expect(plans).toEqual([
      { id: 'basic', monthly_price_minor: 999, annual_price_minor: 9999, is_popular: false },
      { id: 'pro', monthly_price_minor: 1999, annual_price_minor: 19999, is_popular: true },
      { id: 'enterprise', monthly_price_minor: 4999, annual_price_minor: 49999, is_popular: false },
    ])
  })

  it('is idempotent and keeps staff edits', async () => {
    const before = await counts()
    await database.db.updateTable('courses').set({ title: 'Edited by staff' }).where('id', '=', 'website-seo').execute()
    await seedDatabase(database.db)
    expect(await counts()).toEqual(before)
    const course = await database.db
      .selectFrom('courses')
      .select('title')
      .where('id', '=', 'website-seo')
      .executeTakeFirstOrThrow()
    expect(course.title).toBe('Edited by staff')
    expect(await seedIfEmpty(database.db)).toBe(false)
  })
})

describe('seed ratings', () => {
  it('shows for every course exactly the rating, review count and students its rows give, a few hundred reviews in all', async () => {
    const courses = await database.db
      .selectFrom('courses')
      .select([
        'id',
        'rating',
        'review_count',
        'students_count',
        sql<string>`(select count(*) from course_reviews r where r.course_id = courses.id and r.hidden_at is null)`.as(
          'reviews',
        ),
        sql<string | null>`(select round(avg(r.rating)::numeric, 1) from course_reviews r
          where r.course_id = courses.id and r.hidden_at is null)`.as('average'),
        sql<string>`(select count(distinct g.user_id) from access_grants g where g.course_id = courses.id and g.kind = 'course' and g.revoked_at is null)`.as(
          'learners',
        ),
      ])
      .execute()
    for (const course of courses) {
      expect(course.review_count, course.id).toBe(Number(course.reviews))
      expect(course.rating, course.id).toBe(Number(course.average ?? 0))
      expect(course.students_count, course.id).toBeLessThanOrEqual(Number(course.learners))
    }
    const total = courses.reduce((sum, course) => sum + course.review_count, 0)
    expect(total).toBeGreaterThan(200)
    expect(total).toBeLessThan(1000)
    // The seed keeps the shape of the demo: the best-rated courses stay high and the poor ones low.
    const rating = (id: string) => courses.find((course) => course.id === id)?.rating
    expect(rating('modern-react-typescript')).toBe(4.8)
    expect(rating('dropshipping-quick-start')).toBe(1.8)
  })

  it('writes every demo review by a learner who holds the course and completed a lesson of it', async () => {
    const orphans = await database.db
      .selectFrom('course_reviews as r')
      .leftJoin('access_grants as e', (join) =>
        join
          .onRef('e.user_id', '=', 'r.user_id')
          .onRef('e.course_id', '=', 'r.course_id')
          .on('e.kind', '=', 'course')
          .on('e.revoked_at', 'is', null),
      )
      .select('r.id')
      .where('e.user_id', 'is', null)
      .execute()
    expect(orphans).toEqual([])
    const unverified = await database.db
      .selectFrom('course_reviews as r')
      .select('r.id')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('lesson_progress as p')
              .select('p.lesson_id')
              .whereRef('p.user_id', '=', 'r.user_id')
              .whereRef('p.course_id', '=', 'r.course_id')
              .where('p.completed_at', 'is not', null),
          ),
        ),
      )
      .execute()
    expect(unverified).toEqual([])
  })
})

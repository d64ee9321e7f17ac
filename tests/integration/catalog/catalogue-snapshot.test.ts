// The catalogue page holds the categories and facet groups per node until catalog_version moves (decision 0030):
// a change made anywhere (another node, psql) shows on the next request, and a transaction's own uncommitted
// changes are never held for others.
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../../db/types.ts'
import { searchCatalogue } from '../../../src-server/catalog/catalogue-page.ts'
import { catalogueSnapshot, keptRead } from '../../../src-server/catalog/catalogue-snapshot.ts'
import { listCategoriesWithCounts, listFeaturedCourses } from '../../../src-server/catalog/repository.ts'
import { featuredServices, promoVideos, testimonials } from '../../../src-server/flows/home-content.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { catalogueQuerySchema } from '../../../src-shared/schemas/catalog.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'

let database: TestDatabase
const firstPage = catalogueQuerySchema.parse({})
const countOf = (result: Awaited<ReturnType<typeof searchCatalogue>>, slug: string) =>
  result.facets.categories.find((c) => c.slug === slug)?.count

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

async function addPublishedCourse(db: DatabaseHandle['db'], id: string) {
  // As psql or another node would: straight into the table, not through this process's catalogue code.
  await sql`
    insert into courses (id, title, description, instructor_name, image_url, price_minor, currency, category_id,
      status, duration_minutes, level, what_you_will_learn, requirements)
    select ${id}, 'Snapshot probe', 'A course added behind the catalogue''s back', 'Probe', image_url, 1234, 'USD',
      category_id, 'published', 60, level, what_you_will_learn, requirements
    from courses where status = 'published' order by id limit 1`.execute(db)
}

describe('catalogue snapshot', () => {
  it('shows a course added outside the app on the next request, in the total and its category', async () => {
    const before = await searchCatalogue(database.db, firstPage)
    const again = await searchCatalogue(database.db, firstPage)
    expect(again.total).toBe(before.total)
    await addPublishedCourse(database.db, 'snapshot-probe-1')
    const { slug } = await database.db
      .selectFrom('courses')
      .innerJoin('categories', 'categories.id', 'courses.category_id')
      .select('categories.slug')
      .where('courses.id', '=', 'snapshot-probe-1')
      .executeTakeFirstOrThrow()
    const after = await searchCatalogue(database.db, firstPage)
    expect(after.total).toBe(before.total + 1)
    expect(countOf(after, slug)).toBe((countOf(before, slug) ?? 0) + 1)
    expect(after.facets.allCategories).toBe((before.facets.allCategories ?? 0) + 1)
  })

  it('shows a category renamed outside the app on the next request', async () => {
    const before = await searchCatalogue(database.db, firstPage)
    const first = before.facets.categories[0]!
    await sql`update categories set name = 'Renamed behind the back' where slug = ${first.slug}`.execute(database.db)
    const after = await searchCatalogue(database.db, firstPage)
    expect(after.facets.categories[0]).toEqual({ ...first, name: 'Renamed behind the back' })
  })

  it('never holds what a transaction saw for others: a rolled-back course is not counted', async () => {
    const before = await searchCatalogue(database.db, firstPage)
    await database.db
      .transaction()
      .execute(async (trx) => {
        await addPublishedCourse(trx, 'snapshot-probe-rolled-back')
        // Inside, the transaction sees its own course...
        expect((await searchCatalogue(trx, firstPage)).total).toBe(before.total + 1)
        throw new Error('roll back')
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'))
    // ...and outside nobody does, even though the version it saw was the next one.
    await sql`update courses set featured = featured where id = 'no-such-course'`.execute(database.db)
    const after = await searchCatalogue(database.db, firstPage)
    expect(after.total).toBe(before.total)
  })

  it('lets requests that arrive together share one version read, and shows a change to the requests after it', async () => {
    // The same database through a Kysely that logs its statements (its own instance: nothing held is shared with the
    // other tests').
    const versionReads: string[] = []
    const log = (event: { level: string; query: { sql: string } }) => {
      if (event.level === 'query' && event.query.sql.includes('catalog_version')) versionReads.push(event.query.sql)
    }
    const pool = database.url ? new pg.Pool({ connectionString: database.url, max: 4 }) : undefined
    const logged = new Kysely<Database>({
      dialect: pool ? new PostgresDialect({ pool }) : new PGliteDialect({ pglite: database.pglite! }),
      log,
    })
    try {
      await catalogueSnapshot(logged)
      versionReads.length = 0
      const together = await Promise.all(Array.from({ length: 8 }, () => catalogueSnapshot(logged)))
      expect(versionReads).toHaveLength(1)
      expect(new Set(together).size).toBe(1)

      const before = await searchCatalogue(logged, firstPage)
      await addPublishedCourse(database.db, 'snapshot-probe-shared-read')
      const after = await Promise.all(Array.from({ length: 4 }, () => searchCatalogue(logged, firstPage)))
      expect(after.map((result) => result.total)).toEqual(Array(4).fill(before.total + 1))
    } finally {
      if (pool) await pool.end()
    }
  })

  it('keeps the home page featured courses and category counts until the catalogue changes, wherever it changes', async () => {
    const featuredBefore = await listFeaturedCourses(database.db, 50, 4)
    expect(await listFeaturedCourses(database.db, 50, 4)).toBe(featuredBefore) // kept: the same rows, not read again
    const categoriesBefore = await listCategoriesWithCounts(database.db)
    expect(await listCategoriesWithCounts(database.db)).toBe(categoriesBefore)

    await addPublishedCourse(database.db, 'snapshot-probe-featured')
    await sql`update courses set featured = true, created_at = '2000-01-01' where id = 'snapshot-probe-featured'`.execute(
      database.db,
    )
    const featuredAfter = await listFeaturedCourses(database.db, 50, 4)
    expect(featuredAfter[0]?.id).toBe('snapshot-probe-featured')
    expect(featuredAfter).toHaveLength(Math.min(50, featuredBefore.length + 1))
    const total = (rows: typeof categoriesBefore) => rows.reduce((sum, row) => sum + Number(row.course_count), 0)
    expect(total(await listCategoriesWithCounts(database.db))).toBe(total(categoriesBefore) + 1)
  })

  it('does not keep a failed read: the next request reads again', async () => {
    await expect(
      keptRead(database.db, 'probe read', () => Promise.reject(new Error('connection lost'))),
    ).rejects.toThrow('connection lost')
    expect(await keptRead(database.db, 'probe read', async () => 'read again')).toBe('read again')
    expect(await keptRead(database.db, 'probe read', async () => 'not asked')).toBe('read again')
  })

  it('keeps the home page services, promo videos and testimonials until any of them changes outside the app', async () => {
    const servicesBefore = await featuredServices(database.db, 3)
    const videosBefore = await promoVideos(database.db)
    const quotesBefore = await testimonials(database.db)
    expect(await featuredServices(database.db, 3)).toBe(servicesBefore)
    expect(await promoVideos(database.db)).toBe(videosBefore)
    expect(await testimonials(database.db)).toBe(quotesBefore)

    const service = servicesBefore[0]!
    await sql`update service_packages set price_minor = 1 where service_id = ${service.id}`.execute(database.db)
    expect((await featuredServices(database.db, 3))[0]).toMatchObject({ id: service.id, from_price_minor: 1 })

    const quote = quotesBefore[0]!
    await sql`update testimonials set content = 'Changed behind the back' where id = ${quote.id}`.execute(database.db)
    expect((await testimonials(database.db))[0]).toMatchObject({ id: quote.id, content: 'Changed behind the back' })

    const video = videosBefore[0]!
    await sql`update promo_videos set title = 'Retitled behind the back' where id = ${video.id}`.execute(database.db)
    expect((await promoVideos(database.db))[0]).toMatchObject({ id: video.id, title: 'Retitled behind the back' })
  })
})

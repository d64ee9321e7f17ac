import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { DURATION_BANDS, type DurationBand, PRICE_BANDS, type PriceBand } from '../../../src-shared/constants.ts'
import type { CatalogueQueryInput } from '../../../src-shared/schemas/catalog.ts'
import { createTestDatabase } from '../../support/db.ts'

let database: DatabaseHandle
const visitor = () => createCaller(createContextInner({ db: database.db, user: null, session: null }))
const search = (input: CatalogueQueryInput = {}) => visitor().catalog.search(input)

interface Row {
  id: string
  title: string
  instructor_name: string
  price_minor: number
  rating: number
  review_count: number
  duration_minutes: number
  created_at: Date
  slug: string
}
let published: Row[] = []

/** An independent oracle: the same filters written plainly over every published row. */
function matching(query: {
  search?: string
  category?: string
  price?: PriceBand
  rating?: number
  duration?: DurationBand
}) {
  return published.filter((row) => {
    if (query.search) {
      const s = query.search.toLowerCase()
      if (!row.title.toLowerCase().includes(s) && !row.instructor_name.toLowerCase().includes(s)) return false
    }
    if (query.category && row.slug !== query.category) return false
    if (query.price) {
      const band = PRICE_BANDS[query.price]
      if (row.price_minor < band.min || (band.max !== null && row.price_minor > band.max)) return false
    }
    if (query.rating && row.rating < query.rating) return false
    if (query.duration) {
      const band = DURATION_BANDS[query.duration]
      if (
        row.duration_minutes < band.minMinutes ||
        (band.maxMinutes !== null && row.duration_minutes > band.maxMinutes)
      )
        return false
    }
    return true
  })
}

beforeAll(async () => {
  database = await createTestDatabase()
  published = await database.db
    .selectFrom('courses')
    .innerJoin('categories', 'categories.id', 'courses.category_id')
    .select([
      'courses.id',
      'courses.title',
      'courses.instructor_name',
      'courses.price_minor',
      'courses.rating',
      'courses.review_count',
      'courses.duration_minutes',
      'courses.created_at',
      'categories.slug',
    ])
    .where('courses.status', '=', 'published')
    .execute()
})
afterAll(async () => {
  await database.close()
})

describe('catalog.search filters', () => {
  it('lists only published courses, 12 per page, most popular first by default', async () => {
    const result = await search()
    expect(result.total).toBe(published.length)
    expect(result.items).toHaveLength(12)
    const drafts = await database.db.selectFrom('courses').select('id').where('status', '=', 'draft').execute()
    expect(drafts.length).toBeGreaterThan(0)
    const all = [...(await search({ page: 1, pageSize: 48 })).items]
    expect(all.map((c) => c.id)).not.toEqual(expect.arrayContaining([drafts[0]?.id]))
    const reviews = all.map((c) => c.reviewCount)
    expect(reviews).toEqual([...reviews].sort((a, b) => b - a))
  })

  it('searches title or instructor, case-insensitively, as a substring', async () => {
    for (const term of ['REACT', 'seo', 'chen', 'design']) {
      const result = await search({ search: term, pageSize: 48 })
      const expected = matching({ search: term }).map((r) => r.id)
      expect(expected.length).toBeGreaterThan(0)
      expect(result.items.map((c) => c.id).sort()).toEqual(expected.sort())
    }
  })

  it('treats LIKE wildcards in the search as plain text', async () => {
    expect((await search({ search: '%' })).total).toBe(0)
    expect((await search({ search: '_' })).total).toBe(0)
  })

  it.each(['development', 'business', 'marketing', 'design', 'company-formation', 'consultancy'])(
    'filters by category %s',
    async (category) => {
      const result = await search({ category, pageSize: 48 })
      expect(result.category?.slug).toBe(category)
      expect(result.items.map((c) => c.id).sort()).toEqual(
        matching({ category })
          .map((r) => r.id)
          .sort(),
      )
    },
  )

  it.each(Object.keys(PRICE_BANDS) as PriceBand[])('filters by price band %s', async (price) => {
    const result = await search({ price, pageSize: 48 })
    const expected = matching({ price })
    expect(result.total).toBe(expected.length)
    expect(result.items.map((c) => c.id).sort()).toEqual(expected.map((r) => r.id).sort())
  })

  it('includes both ends of $50-$100', async () => {
    const id = published[0]?.id ?? ''
    await database.db.updateTable('courses').set({ price_minor: 10000 }).where('id', '=', id).execute()
    expect((await search({ price: '50to100', pageSize: 48 })).items.map((c) => c.id)).toContain(id)
    expect((await search({ price: 'over100', pageSize: 48 })).items.map((c) => c.id)).not.toContain(id)
    await database.db.updateTable('courses').set({ price_minor: 5000 }).where('id', '=', id).execute()
    expect((await search({ price: '50to100', pageSize: 48 })).items.map((c) => c.id)).toContain(id)
    expect((await search({ price: 'under50', pageSize: 48 })).items.map((c) => c.id)).not.toContain(id)
    const row = published[0]
    if (row)
      await database.db.updateTable('courses').set({ price_minor: row.price_minor }).where('id', '=', id).execute()
  })

  it.each([4, 3, 2, 1])('filters by rating %i and up', async (rating) => {
    const result = await search({ rating, pageSize: 48 })
    expect(result.total).toBe(matching({ rating }).length)
    for (const course of result.items) expect(course.rating).toBeGreaterThanOrEqual(rating)
  })

  it.each(Object.keys(DURATION_BANDS) as DurationBand[])('filters by duration %s', async (duration) => {
    const result = await search({ duration, pageSize: 48 })
    expect(result.items.map((c) => c.id).sort()).toEqual(
      matching({ duration })
        .map((r) => r.id)
        .sort(),
    )
  })

  it('combines every filter', async () => {
    const query = { search: 'e', category: 'development', price: 'over100', rating: 4, duration: '12+' } as const
    const result = await search({ ...query, pageSize: 48 })
    expect(result.items.map((c) => c.id).sort()).toEqual(
      matching(query)
        .map((r) => r.id)
        .sort(),
    )
  })

  it('ignores an unknown category (spec: preselected only if known)', async () => {
    const result = await search({ category: 'no-such-category' })
    expect(result.category).toBeNull()
    expect(result.total).toBe(published.length)
  })
})

describe('catalog.search facet counts', () => {
  it('count what each option would give, keeping the other filters', async () => {
    const query = { search: 'a', category: 'development', price: 'over100', rating: 3, duration: '6-12' } as const
    const { facets, total } = await search(query)
    expect(total).toBe(matching(query).length)
    for (const category of facets.categories) {
      expect(category.count, category.slug).toBe(matching({ ...query, category: category.slug }).length)
    }
    expect(facets.allCategories).toBe(matching({ ...query, category: undefined }).length)
    for (const band of Object.keys(PRICE_BANDS) as PriceBand[]) {
      expect(facets.price[band], band).toBe(matching({ ...query, price: band }).length)
    }
    for (const { floor, count } of facets.rating) expect(count).toBe(matching({ ...query, rating: floor }).length)
    for (const band of Object.keys(DURATION_BANDS) as DurationBand[]) {
      expect(facets.duration[band], band).toBe(matching({ ...query, duration: band }).length)
    }
  })

  it('with no filters, category counts add up to the published total', async () => {
    const { facets, total } = await search()
    expect(facets.categories.reduce((sum, c) => sum + (c.count ?? Number.NaN), 0)).toBe(total)
    expect(facets.allCategories).toBe(total)
    expect(Object.values(facets.price).reduce((sum: number, n) => sum + (n ?? Number.NaN), 0)).toBe(total)
    expect(Object.values(facets.duration).reduce((sum: number, n) => sum + (n ?? Number.NaN), 0)).toBe(total)
  })
})

describe('catalog.search facet cache', () => {
  it('counts follow every change to the courses, however it is made', async () => {
    const before = await search()
    const id = published[1]?.id ?? ''
    await database.db.updateTable('courses').set({ status: 'draft' }).where('id', '=', id).execute()
    const afterDraft = await search()
    expect(afterDraft.total).toBe(before.total - 1)
    await database.db.updateTable('courses').set({ status: 'published', price_minor: 0 }).where('id', '=', id).execute()
    const afterFree = await search()
    expect(afterFree.total).toBe(before.total)
    const wasFree = published[1]?.price_minor === 0
    expect(afterFree.facets.price.free).toBe((before.facets.price.free ?? Number.NaN) + (wasFree ? 0 : 1))
    await database.db
      .updateTable('courses')
      .set({ price_minor: published[1]?.price_minor ?? 0 })
      .where('id', '=', id)
      .execute()
    expect((await search()).facets.price).toEqual(before.facets.price)
  })
})

describe('catalog.search sorting', () => {
  const all = (sort: CatalogueQueryInput['sort']) => search({ sort, pageSize: 48 }).then((r) => r.items)
  it('Highest Rated', async () => {
    const ratings = (await all('rating')).map((c) => c.rating)
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a))
  })
  it('Newest', async () => {
    const ids = (await all('newest')).map((c) => c.id)
    const expected = [...published].sort(
      (a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1),
    )
    expect(ids).toEqual(expected.map((r) => r.id))
  })
  it('Price: Low to High and High to Low', async () => {
    const asc = (await all('price-asc')).map((c) => c.priceMinor)
    expect(asc).toEqual([...asc].sort((a, b) => a - b))
    const desc = (await all('price-desc')).map((c) => c.priceMinor)
    expect(desc).toEqual([...desc].sort((a, b) => b - a))
  })
})

describe('catalog.search pagination', () => {
  it('pages never overlap and together hold every course', async () => {
    const first = await search({ page: 1 })
    expect(first.pageCount).toBe(Math.ceil(published.length / 12))
    const ids: string[] = []
    for (let page = 1; page <= first.pageCount; page++) ids.push(...(await search({ page })).items.map((c) => c.id))
    expect(new Set(ids).size).toBe(published.length)
  })
  it('the last page holds the remainder', async () => {
    const last = await search({ page: Math.ceil(published.length / 12) })
    expect(last.items).toHaveLength(published.length % 12 || 12)
  })
  it('a page past the end shows the last page instead of failing', async () => {
    const result = await search({ page: 999 })
    expect(result.page).toBe(result.pageCount)
    expect(result.items.length).toBeGreaterThan(0)
  })
  it('honours the page size', async () => {
    const result = await search({ pageSize: 5, page: 2 })
    expect(result.items).toHaveLength(5)
    expect(result.pageCount).toBe(Math.ceil(published.length / 5))
  })
  it('an empty result is page 1 of 1', async () => {
    const result = await search({ search: 'zzzz-nothing-matches' })
    expect(result).toMatchObject({ total: 0, page: 1, pageCount: 1, items: [] })
  })
})

describe('catalog.search bad input', () => {
  it.each([
    { page: 0 },
    { page: -1 },
    { pageSize: 0 },
    { pageSize: 1000 },
    { sort: 'cheapest' },
    { price: 'cheap' },
    { rating: 9 },
    { duration: 'forever' },
    { search: 'x'.repeat(101) },
    { category: "'; drop table courses; --" },
  ])('refuses %o with BAD_REQUEST', async (input) => {
    const error = await search(input as CatalogueQueryInput).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TRPCError)
    expect((error as TRPCError).code).toBe('BAD_REQUEST')
  })
})

describe('catalog.categories', () => {
  it('counts published courses per category from the database', async () => {
    const categories = await visitor().catalog.categories()
    for (const category of categories) {
      expect(category.count).toBe(published.filter((r) => r.slug === category.slug).length)
    }
    expect(categories.map((c) => c.slug)).toEqual(
      expect.arrayContaining(['development', 'business', 'company-formation', 'consultancy']),
    )
  })
})

describe('catalog.course', () => {
  it('includes the instructor card', async () => {
    const course = await visitor().catalog.course({ id: 'modern-react-typescript' })
    expect(course?.instructorProfile.name).toBe(course?.instructor)
    expect(course?.instructorProfile.bio.length).toBeGreaterThan(10)
  })
})

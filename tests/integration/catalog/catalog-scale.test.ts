// The catalogue at scale (decision 0022): the same matches and order as the substring search it replaced, counts kept
// by triggers that equal a recount after any change, bounded counts past FACET_COUNT_BOUND, and every catalogue
// and home query served by an index (checked with EXPLAIN on a modest generated catalogue).
import { CompiledQuery, Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { courseRow } from '../../../db/seed/factories.ts'
import { generateCatalogue } from '../../../db/seed/generate.ts'
import type { Database } from '../../../db/types.ts'
import { FACET_COUNT_BOUND } from '../../../src-server/catalog/facets.ts'
import { buildCoursesSitemap, buildSitemapIndex, SITEMAP_MAX_URLS } from '../../../src-server/http/seo.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { DB } from '../../../src-server/kernel/db.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { DURATION_BANDS, PRICE_BANDS, SORT_OPTIONS, type SortOption } from '../../../src-shared/constants.ts'
import { type CatalogueQueryInput, catalogueQuerySchema } from '../../../src-shared/schemas/catalog.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'

let database: TestDatabase
const visitor = (db: DB = database.db) => createCaller(createContextInner({ db, user: null, session: null }))

beforeAll(async () => {
  database = await createTestDatabase()
}, 60_000)
afterAll(async () => {
  await database.close()
})

/** The catalogue's search as it was before decision 0022: ILIKE on title or instructor, one SQL query. */
async function searchedBefore(input: CatalogueQueryInput) {
  const query = catalogueQuerySchema.parse(input)
  const pattern = `%${(query.search ?? '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const order: Record<SortOption, string> = {
    popular: 'review_count desc, c.id',
    rating: 'rating desc, review_count desc, c.id',
    newest: 'c.created_at desc, c.id desc',
    'price-asc': 'price_minor asc, c.id',
    'price-desc': 'price_minor desc, c.id',
  }
  const category = query.category ?? null
  const price = query.price ? PRICE_BANDS[query.price] : null
  const duration = query.duration ? DURATION_BANDS[query.duration] : null
  const { rows } = await sql<{ id: string }>`
    select c.id from courses c join categories k on k.id = c.category_id
    where c.status = 'published' and (c.title ilike ${pattern} or c.instructor_name ilike ${pattern})
      and (${category}::text is null or k.slug = ${category})
      and (${price?.min ?? null}::int is null or c.price_minor >= ${price?.min ?? null})
      and (${price?.max ?? null}::int is null or c.price_minor <= ${price?.max ?? null})
      and (${query.rating ?? null}::int is null or c.rating >= ${query.rating ?? null})
      and (${duration?.minMinutes ?? null}::int is null or c.duration_minutes >= ${duration?.minMinutes ?? null})
      and (${duration?.maxMinutes ?? null}::int is null or c.duration_minutes <= ${duration?.maxMinutes ?? null})
    order by ${sql.raw(order[query.sort])}`.execute(database.db)
  return rows.map((row) => row.id)
}

/** Every page of the catalogue for a query, in order. */
async function searchedNow(input: CatalogueQueryInput) {
  const ids: string[] = []
  for (let page = 1; ; page++) {
    const result = await visitor().catalog.search({ ...input, page, pageSize: 48 })
    if (result.page !== page) break
    ids.push(...result.items.map((c) => c.id))
    if (page >= result.pageCount) return { ids, total: result.total, capped: result.totalCapped }
  }
  throw new Error('unreachable')
}

/** Search terms drawn from the seed: whole words, their prefixes, inner substrings, case changes, punctuation. */
async function seedTerms(): Promise<string[]> {
  const rows = await database.db.selectFrom('courses').select(['title', 'instructor_name']).execute()
  const words = [...new Set(rows.flatMap((r) => `${r.title} ${r.instructor_name}`.split(/[^A-Za-z0-9]+/)))].filter(
    (w) => w.length >= 3,
  )
  const terms = new Set<string>([
    'a',
    'e',
    'js',
    'Node.js',
    'C#',
    'with TypeScript',
    'for ',
    ' & ',
    'Rodríguez',
    '100%',
  ])
  for (const word of words.slice(0, 40)) {
    terms.add(word)
    terms.add(word.toUpperCase())
    terms.add(word.slice(0, 3))
    terms.add(word.slice(1, -1))
  }
  return [...terms].filter((t) => t.trim().length > 0)
}

describe('search on the seed catalogue', () => {
  it('finds the same courses in the same order as the ILIKE search it replaced', { timeout: 120_000 }, async () => {
    const terms = await seedTerms()
    expect(terms.length).toBeGreaterThan(80)
    for (const search of terms) {
      const sort = Object.keys(SORT_OPTIONS)[search.length % 5] as SortOption
      const now = await searchedNow({ search, sort })
      expect(now.ids, `"${search}" sorted by ${sort}`).toEqual(await searchedBefore({ search, sort }))
      expect(now.total).toBe(now.ids.length)
    }
  })

  it('keeps them the same with every filter', async () => {
    const inputs: CatalogueQueryInput[] = [
      { search: 'react', category: 'development', sort: 'rating' },
      { search: 'des', price: 'over100', sort: 'price-asc' },
      { search: 'an', rating: 4, duration: '3-6', sort: 'newest' },
      { search: 'in', category: 'marketing', price: 'under50', rating: 3, duration: '0-3' },
      { search: 'SEO', price: '50to100' },
      { category: 'design', rating: 2, sort: 'price-desc' },
    ]
    for (const input of inputs) {
      expect((await searchedNow(input)).ids, JSON.stringify(input)).toEqual(await searchedBefore(input))
    }
  })
})

/** Facet and word counts recomputed from the courses with the shared constants' bands (not the SQL functions). */
async function recount(db: DB) {
  const rows = await db
    .selectFrom('courses')
    .select(['category_id', 'price_minor', 'rating', 'duration_minutes', 'title', 'instructor_name'])
    .where('status', '=', 'published')
    .execute()
  const band = (bands: Record<string, { min: number; max: number | null }>, value: number) =>
    Object.values(bands).findIndex((b) => value >= b.min && (b.max === null || value <= b.max))
  const durations = Object.fromEntries(
    Object.entries(DURATION_BANDS).map(([key, b]) => [key, { min: b.minMinutes, max: b.maxMinutes }]),
  )
  const facets = new Map<string, number>()
  const words = new Map<string, number>()
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)
  for (const row of rows) {
    const group = [
      row.category_id,
      band(PRICE_BANDS, row.price_minor),
      Math.min(Math.floor(row.rating), 4),
      band(durations, row.duration_minutes),
    ].join('/')
    add(facets, group)
    const lexemes = await sql<{ word: string }>`
      select unnest(tsvector_to_array(to_tsvector('simple', translate(${`${row.title} ${row.instructor_name}`}, '<>&', '   ')))) as word`.execute(
      db,
    )
    for (const { word } of lexemes.rows) add(words, `${word}/${group}`)
  }
  return { facets, words }
}

async function keptCounts(db: DB) {
  const facets = await db.selectFrom('catalog_facet_counts').selectAll().where('courses', '<>', 0).execute()
  const words = await db.selectFrom('catalog_word_counts').selectAll().where('courses', '<>', 0).execute()
  const key = (r: (typeof facets)[number]) => `${r.category_id}/${r.price_band}/${r.rating_floor}/${r.duration_band}`
  return {
    facets: new Map(facets.map((r) => [key(r), r.courses])),
    words: new Map(words.map((r) => [`${r.word}/${key(r)}`, r.courses])),
  }
}

describe('counts kept by triggers', () => {
  it('equal a recount after inserts, edits across every band, unpublishing and deletes', async () => {
    const db = database.db
    const category = await db
      .selectFrom('categories')
      .select('id')
      .where('slug', '=', 'design')
      .executeTakeFirstOrThrow()
    const other = await db
      .selectFrom('categories')
      .select('id')
      .where('slug', '=', 'business')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('courses')
      .values([
        courseRow({ id: 'scale-1', title: 'Figma <div> & Friends', category_id: category.id, price_minor: 0 }),
        courseRow({
          id: 'scale-2',
          title: 'Figma for Teams',
          category_id: category.id,
          price_minor: 4999,
          rating: 3.9,
          duration_minutes: 180,
        }),
        courseRow({ id: 'scale-3', title: 'Draft course', category_id: category.id, status: 'draft' }),
      ])
      .execute()
    await db
      .updateTable('courses')
      .set({ price_minor: 5000, rating: 4.0, duration_minutes: 181 })
      .where('id', '=', 'scale-2')
      .execute()
    await db.updateTable('courses').set({ rating: 4.4 }).where('id', '=', 'scale-2').execute()
    await db
      .updateTable('courses')
      .set({ price_minor: 10001, duration_minutes: 721, category_id: other.id })
      .where('id', '=', 'scale-1')
      .execute()
    await db
      .updateTable('courses')
      .set({ title: 'Figma Teams, Renamed', status: 'published' })
      .where('id', '=', 'scale-3')
      .execute()
    await db.updateTable('courses').set({ status: 'draft' }).where('id', '=', 'scale-2').execute()
    await db.deleteFrom('courses').where('id', '=', 'scale-1').execute()
    // Many rows in one statement, as the admin or psql could.
    await db
      .updateTable('courses')
      .set({ rating: sql`least(5, rating + 1)` })
      .where('status', '=', 'published')
      .execute()

    const kept = await keptCounts(db)
    const expected = await recount(db)
    expect(kept.facets).toEqual(expected.facets)
    expect(kept.words).toEqual(expected.words)
    // '<div>' is a word to the search, as it is a substring to ILIKE ('scale-1' is deleted by now).
    expect((await visitor().catalog.search({ search: 'div' })).total).toBe(0)
    expect((await visitor().catalog.search({ search: 'renamed' })).total).toBe(1)
  })

  it('give the home page the published courses per category', async () => {
    const categories = await visitor().catalog.categories()
    const { rows } = await sql<{ slug: string; n: number }>`
      select k.slug, count(c.id)::int as n from categories k
      left join courses c on c.category_id = k.id and c.status = 'published' group by k.slug`.execute(database.db)
    for (const row of rows) expect(categories.find((c) => c.slug === row.slug)?.count, row.slug).toBe(row.n)
  })
})

describe('a generated catalogue', () => {
  let big: TestDatabase
  beforeAll(async () => {
    big = await createTestDatabase()
    await generateCatalogue(big.db, { courses: 6000, batch: 3000 })
    await sql`analyze`.execute(big.db)
  }, 120_000)
  afterAll(async () => {
    await big?.close()
  })

  it('has its counts rebuilt after the bulk load (the counting triggers are off during it, and on again)', async () => {
    const { rows: facets } = await sql<{ differences: number }>`
      select count(*)::int as differences from (
        (select category_id, catalog_price_band(price_minor) as p, catalog_rating_floor(rating) as r,
          catalog_duration_band(duration_minutes) as d, count(*)::int as n
         from courses where status = 'published' group by 1, 2, 3, 4
         except select category_id, price_band, rating_floor, duration_band, courses from catalog_facet_counts)
        union all
        (select category_id, price_band, rating_floor, duration_band, courses from catalog_facet_counts
         where courses <> 0
         except select category_id, catalog_price_band(price_minor), catalog_rating_floor(rating),
          catalog_duration_band(duration_minutes), count(*)::int
         from courses where status = 'published' group by 1, 2, 3, 4)
      ) as d`.execute(big.db)
    expect(facets[0]?.differences).toBe(0)
    const { rows: words } = await sql<{ kept: number; counted: number }>`
      select (select sum(courses)::int from catalog_word_counts) as kept,
        (select count(*)::int from courses, unnest(tsvector_to_array(catalog_words(title, instructor_name)))
         where status = 'published') as counted`.execute(big.db)
    expect(words[0]?.kept).toBe(words[0]?.counted)
    const before = await visitor(big.db).catalog.categories()
    await big.db.updateTable('courses').set({ status: 'draft' }).where('id', '=', 'gen-0000004').execute()
    const course = await big.db
      .selectFrom('courses')
      .innerJoin('categories', 'categories.id', 'courses.category_id')
      .select('categories.slug')
      .where('courses.id', '=', 'gen-0000004')
      .executeTakeFirstOrThrow()
    const after = await visitor(big.db).catalog.categories()
    const changed = after.find((c) => c.slug === course.slug)
    expect(changed?.count).toBe((before.find((c) => c.slug === course.slug)?.count ?? 0) - 1)
    await big.db.updateTable('courses').set({ status: 'published' }).where('id', '=', 'gen-0000004').execute()
  })

  it('splits the sitemap into files of at most the given number of courses, listing each published one once', async () => {
    const deps = { db: big.db, config: { ...defaultAppConfig, publicUrl: 'https://shop.example' } }
    const perFile = 2500
    const { rows } = await sql<{ id: string }>`
      select id from courses where status = 'published' order by id`.execute(big.db)
    const files = Math.ceil(rows.length / perFile)
    expect(files).toBeGreaterThan(2)
    const index = await buildSitemapIndex(deps, perFile)
    const courseFiles = [...index.matchAll(/<loc>https:\/\/shop\.example\/sitemaps\/courses-(\d+)\.xml<\/loc>/g)]
    expect(courseFiles.map((m) => Number(m[1]))).toEqual(Array.from({ length: files }, (_, i) => i + 1))
    const listed: string[] = []
    for (let file = 1; file <= files; file++) {
      const xml = (await buildCoursesSitemap(deps, file, perFile)) ?? ''
      const ids = [...xml.matchAll(/\/courses\/([^<]+)<\/loc>/g)].map((m) => decodeURIComponent(m[1] ?? ''))
      expect(ids.length).toBeLessThanOrEqual(perFile)
      expect(ids.length).toBeGreaterThan(0)
      listed.push(...ids)
    }
    expect(listed).toEqual(rows.map((r) => r.id))
    expect(await buildCoursesSitemap(deps, files + 1, perFile)).toBeNull()
    expect(SITEMAP_MAX_URLS).toBe(50_000)
  })

  it('reads a sitemap slice from the published-id index, not the table (EXPLAIN)', async () => {
    // As autovacuum keeps it in a live database: the visibility map is what makes an index-only scan worth it.
    await sql`vacuum analyze courses`.execute(big.db)
    const plan = await big.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx)
      const { rows } = await sql<Record<string, string>>`
        explain select id, updated_at from courses where status = 'published' order by id offset 2500 limit 2500`.execute(
        trx,
      )
      return rows.map((r) => Object.values(r)[0]).join('\n')
    })
    expect(plan).toMatch(/Index Only Scan using courses_published_id_idx/)
  })

  it("reads an instructor's published courses from their partial index, not the table (EXPLAIN)", async () => {
    await sql`analyze courses`.execute(big.db)
    const instructor = await big.db
      .selectFrom('courses')
      .select('instructor_id')
      .where('status', '=', 'published')
      .where('instructor_id', 'is not', null)
      .executeTakeFirstOrThrow()
    // The query of catalog/instructors.ts publishedCoursesOf.
    const plan = await big.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx)
      const { rows } = await sql<Record<string, string>>`
        explain select id from courses where instructor_id = ${instructor.instructor_id} and status = 'published'
        order by published_at desc, id limit 200`.execute(trx)
      return rows.map((r) => Object.values(r)[0]).join('\n')
    })
    expect(plan).toMatch(/courses_instructor_published_idx/)
  })

  it('counts a broad term up to the bound and then says so, with the first page still in order', async () => {
    // 'ing' is inside many words: the term takes the bounded path.
    const result = await visitor(big.db).catalog.search({ search: 'ing' })
    expect(result.totalCapped).toBe(true)
    expect(result.total).toBe(FACET_COUNT_BOUND)
    expect(result.facets.allCategories).toBeNull()
    expect(result.facets.price.free).toBeNull()
    const { rows } = await sql<{ id: string }>`
      select id from courses where status = 'published' and (title ilike '%ing%' or instructor_name ilike '%ing%')
      order by review_count desc, id limit 12`.execute(big.db)
    expect(result.items.map((c) => c.id)).toEqual(rows.map((r) => r.id))
  })

  it('counts a one-word term exactly, whatever its size, from the kept word counts', async () => {
    const result = await visitor(big.db).catalog.search({ search: 'python', price: 'under50' })
    const { rows } = await sql<{ total: number; free: number }>`
      select count(*) filter (where price_minor between 1 and 4999)::int as total,
        count(*) filter (where price_minor = 0)::int as free
      from courses where status = 'published' and (title ilike '%python%' or instructor_name ilike '%python%')`.execute(
      big.db,
    )
    expect(result.totalCapped).toBe(false)
    expect(result.total).toBe(rows[0]?.total)
    expect(result.facets.price.free).toBe(rows[0]?.free)
  })

  it('serves every catalogue and home query from an index (EXPLAIN with sequential scans disabled)', async () => {
    const logged: { sql: string; parameters: readonly unknown[] }[] = []
    const { db: logging, close } = withQueryLog(big, logged)
    const caller = visitor(logging)
    const inputs: CatalogueQueryInput[] = [
      {},
      { category: 'business', sort: 'newest', page: 40 },
      { search: 'quantum' },
      { search: 'react', category: 'development', sort: 'rating', page: 2 },
      { search: 'data', category: 'development', price: '50to100', rating: 4, duration: '6-12', sort: 'price-asc' },
      { search: 'design' },
      { search: 'ing' },
      { rating: 1, duration: '12+', price: 'free', sort: 'newest' },
    ]
    for (const input of inputs) await caller.catalog.search(input)
    await caller.catalog.categories()
    await caller.catalog.featuredCourses()
    await caller.catalog.course({ id: 'gen-0000100' })
    expect(logged.length).toBeGreaterThan(20)
    const plans: string[] = []
    await big.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx)
      for (const query of logged) {
        const plan = await trx.executeQuery<Record<string, string>>(
          CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
        )
        plans.push(`${query.sql}\n${plan.rows.map((row) => Object.values(row)[0]).join('\n')}`)
      }
    })
    await close()
    for (const plan of plans) expect(plan).not.toMatch(/Seq Scan on courses /)
    const planOf = (fragment: string) => plans.filter((plan) => plan.includes(fragment))
    // The home page's counts never read the courses; its featured courses come from their partial index.
    expect(planOf('from "categories"').filter((plan) => plan.includes('catalog_facet_counts'))).toHaveLength(1)
    for (const plan of planOf('from "categories"')) expect(plan).not.toMatch(/ on courses/)
    expect(planOf('"courses"."featured" =').join('\n')).toMatch(/courses_featured_idx/)
    // A searched page or count reads an index of courses. (Which one is the planner's call by size: at 6,000 courses
    // a bitmap over a small index wins; at 1M `npm run bench:catalog` shows the GIN index of the search vector.)
    const searched = planOf('search_vector @@')
    expect(searched.length).toBeGreaterThan(3)
    for (const plan of searched) expect(plan).toMatch(/Index (Only )?Scan (Backward )?(using|on) courses_\w+_idx/)
  })
})

/** A second Kysely on the same database that records every query it runs. */
function withQueryLog(handle: TestDatabase, logged: { sql: string; parameters: readonly unknown[] }[]) {
  const pool = handle.pglite ? null : new pg.Pool({ connectionString: handle.url, max: 2 })
  // As the app's own pool (kernel/db.ts): a client the database ends (the scratch database is dropped WITH (FORCE)
  // after the file) emits 'error', which with no listener was an uncaught exception that failed a whole Vitest run.
  pool?.on('error', () => {})
  pool?.on('connect', (client) => client.on('error', () => {}))
  const dialect = pool ? new PostgresDialect({ pool }) : new PGliteDialect({ pglite: handle.pglite! })
  const db = new Kysely<Database>({
    dialect,
    log: (event) => {
      if (event.level === 'query') logged.push(event.query)
    },
  })
  // Destroying a PGlite Kysely would close the test database's instance: only the pool is ours to end.
  return { db, close: async () => (handle.pglite ? undefined : db.destroy()) }
}

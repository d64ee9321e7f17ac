// `npm run bench:catalog [-- --size 100000 --runs 40 --database-url postgres://…]`
// Generates a large catalogue in a scratch database (PGlite in a temp dir by default; PostgreSQL with
// --database-url or TEST_DATABASE_URL), then prints the server-side latency (median, p99) of representative
// catalogue queries and the EXPLAIN plans of the substring search.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import pg from 'pg'
import { migrateToLatest } from '../db/migrate.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { searchCatalogue } from '../src-server/catalog/catalogue-page.ts'
import { facetGroupsQuery } from '../src-server/catalog/facets.ts'
import { coursePageQuery, listCategories } from '../src-server/catalog/search.ts'
import { type DatabaseHandle, openDatabase } from '../src-server/db.ts'
import { type CatalogueQueryInput, catalogueQuerySchema } from '../src-shared/schemas/catalog.ts'

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '40' },
    'database-url': { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
})
const size = Number(values.size)
const runs = Number(values.runs)
const adminUrl = values['database-url'] ?? process.env.TEST_DATABASE_URL

const scenarios: [string, CatalogueQueryInput][] = [
  ['first page, Most Popular', {}],
  ['category + Newest, page 40', { category: 'business', sort: 'newest', page: 40 }],
  [
    'search "react" + category + Highest Rated, page 2',
    { search: 'react', category: 'development', sort: 'rating', page: 2 },
  ],
  [
    'search "data" + price + rating + duration + price asc',
    { search: 'data', price: '50to100', rating: 4, duration: '6-12', sort: 'price-asc' },
  ],
  ['search instructor "okafor", price desc', { search: 'okafor', sort: 'price-desc' }],
  ['rare search "quantum"', { search: 'quantum' }],
]

const { handle, cleanup } = await openScratch()
try {
  const db = handle.db
  await migrateToLatest(db)
  await seedDatabase(db)
  const started = performance.now()
  await generateCourses(handle, size)
  await sql`vacuum analyze courses`.execute(db)
  console.log(
    `${handle.kind}: generated ${size.toLocaleString('en-US')} courses in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  )

  console.log('Whole catalogue request (categories + facet counts + page), ms:')
  console.log('scenario'.padEnd(58), 'total'.padStart(7), 'median'.padStart(8), 'p99'.padStart(8))
  for (const [name, input] of scenarios) {
    const query = catalogueQuerySchema.parse(input)
    const first = await searchCatalogue(db, query)
    const times: number[] = []
    for (let i = 0; i < runs; i++) {
      const t = performance.now()
      await searchCatalogue(db, query)
      times.push(performance.now() - t)
    }
    console.log(
      name.padEnd(58),
      String(first.total).padStart(7),
      fmt(percentile(times, 50)),
      fmt(percentile(times, 99)),
    )
  }

  console.log('\nSeparately, ms (median / p99):')
  const categories = await listCategories(db)
  for (const [name, input] of scenarios.slice(2, 4)) {
    const query = catalogueQuerySchema.parse(input)
    const categoryId = categories.find((c) => c.slug === query.category)?.id ?? null
    const facets = await time(() => facetGroupsQuery(query.search).execute(db))
    const page = await time(() => coursePageQuery(db, query, categoryId, query.page).execute())
    console.log(`  ${name}: facets ${facets}; page ${page}`)
  }

  const query = catalogueQuerySchema.parse({ search: 'react', sort: 'rating' })
  console.log('\nEXPLAIN ANALYZE: facet counts for search "react"')
  await explain(handle, sql`explain (analyze, costs off) ${facetGroupsQuery(query.search)}`)
  console.log('\nEXPLAIN ANALYZE: page 1 for search "react", Highest Rated')
  const compiled = coursePageQuery(db, query, null, 1).compile()
  await explain(handle, sql`explain (analyze, costs off) ${sql.raw(inline(compiled.sql, compiled.parameters))}`)
} finally {
  await cleanup()
}

function percentile(times: number[], p: number): number {
  const sorted = [...times].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
}
function fmt(ms: number): string {
  return ms.toFixed(1).padStart(8)
}
async function time(run: () => Promise<unknown>): Promise<string> {
  await run()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    await run()
    times.push(performance.now() - t)
  }
  return `${percentile(times, 50).toFixed(1)} / ${percentile(times, 99).toFixed(1)}`
}

async function explain(handle: DatabaseHandle, query: ReturnType<typeof sql>) {
  const result = await query.execute(handle.db)
  for (const row of result.rows as Record<string, string>[]) console.log(`  ${Object.values(row)[0]}`)
}

/** EXPLAIN cannot take bind parameters on every driver: inline them (bench-only, values are our own). */
function inline(text: string, parameters: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n) => {
    const value = parameters[Number(n) - 1]
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`
  })
}

/** Bulk-generates courses in SQL: varied titles, instructors, categories, prices, ratings and lengths. */
async function generateCourses(handle: DatabaseHandle, count: number) {
  const batch = 20_000
  for (let start = 1; start <= count; start += batch) {
    const end = Math.min(count, start + batch - 1)
    await sql`
      with topics as (select array['React','TypeScript','Python','Data Science','SQL','Marketing','SEO','Branding',
          'Leadership','Finance','Excel','Photography','UX Design','Figma','Node.js','Kubernetes','Accounting',
          'Copywriting','Negotiation','Machine Learning'] as t),
        levels as (select array['Complete','Practical','Modern','Essential','Advanced','Hands-on','Mastering'] as l),
        people as (select array['Sarah Chen','David Okafor','Elena Rodriguez','James Whitfield','Priya Patel',
          'Marcus Johnson','Amara Nwosu','Tom Becker','Lucia Moretti','Kenji Watanabe'] as p),
        cats as (select array_agg(id order by position) as c from categories)
      insert into courses (id, title, description, category_id, instructor_name, price_minor, original_price_minor,
        rating, review_count, students_count, level, duration_minutes, lessons_count, status, featured, created_at)
      select 'bench-' || g,
        l[1 + (g * 7) % array_length(l, 1)] || ' ' || t[1 + (g * 13) % array_length(t, 1)] || ' Course ' || g,
        'A generated course for the catalogue benchmark.',
        c[1 + (g * 31) % array_length(c, 1)],
        p[1 + (g * 17) % array_length(p, 1)],
        case when g % 20 = 0 then 0 else 999 + (g::bigint * 7919) % 19000 end,
        null,
        round(((g * 37) % 41) / 10.0 + 1, 1),
        (g::bigint * 104729) % 20000,
        (g::bigint * 15485863) % 100000,
        (array['beginner','intermediate','advanced'])[1 + g % 3],
        30 + (g * 97) % 1500,
        5 + g % 40,
        case when g % 50 = 0 then 'draft' else 'published' end,
        false,
        now() - make_interval(mins => g)
      from generate_series(${start}::int, ${end}::int) as g, topics, levels, people, cats`.execute(handle.db)
  }
}

async function openScratch(): Promise<{ handle: DatabaseHandle; cleanup: () => Promise<void> }> {
  if (adminUrl) {
    const name = `bench_catalog_${randomBytes(4).toString('hex')}`
    await adminQuery(adminUrl, `create database ${name}`)
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 })
    return {
      handle,
      cleanup: async () => {
        await handle.close()
        if (values.keep) console.log(`\nKept database ${name}`)
        else await adminQuery(adminUrl, `drop database if exists ${name} with (force)`)
      },
    }
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-catalog-'))
  const handle = await openDatabase({ dataDir: dir })
  return {
    handle,
    cleanup: async () => {
      await handle.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

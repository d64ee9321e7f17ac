// The storefront's public reads as the browser sends them (tRPC batch GETs), shared by the benchmarks.
import type { DB } from '../../src-server/kernel/db.ts'
import type { CatalogueQueryInput } from '../../src-shared/schemas/catalog.ts'

export interface BenchRequest {
  name: string
  path: string
}

/** The URL httpBatchLink builds for these calls (a call without input has no key). */
export function trpcBatchUrl(calls: [procedure: string, input?: unknown][]): string {
  const inputs = Object.fromEntries(
    calls.flatMap(([, input], index) => (input === undefined ? [] : [[String(index), input]])),
  )
  const names = calls.map(([procedure]) => procedure).join(',')
  return `/trpc/${names}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`
}

const search = (input: CatalogueQueryInput) => trpcBatchUrl([['catalog.search', input]])

/** A published generated course in the middle of the catalogue (or any published course). */
export async function sampleCourseId(db: DB): Promise<string> {
  const middle = await db
    .selectFrom('courses')
    .select('id')
    .where('status', '=', 'published')
    .where('id', '>=', 'gen-0050000')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
  if (middle) return middle.id
  const any = await db.selectFrom('courses').select('id').where('status', '=', 'published').limit(1).execute()
  if (!any[0]) throw new Error('bench: no published course')
  return any[0].id
}

/** The scenarios: catalogue pages, searches, a course and the home page's batch. */
export function catalogueRequests(courseId: string): BenchRequest[] {
  return [
    { name: 'catalogue first page', path: search({}) },
    { name: 'category + Newest, page 40', path: search({ category: 'business', sort: 'newest', page: 40 }) },
    { name: 'rare term "quantum"', path: search({ search: 'quantum' }) },
    { name: 'course detail', path: trpcBatchUrl([['catalog.course', { id: courseId }]]) },
    {
      name: 'search "react" + category + rating sort, p2',
      path: search({ search: 'react', category: 'development', sort: 'rating', page: 2 }),
    },
    {
      name: 'search "data" + four filters',
      path: search({
        search: 'data',
        category: 'development',
        price: '50to100',
        rating: 4,
        duration: '6-12',
        sort: 'price-asc',
      }),
    },
    { name: 'broad term "design"', path: search({ search: 'design' }) },
    {
      name: 'home page (batch of six)',
      path: trpcBatchUrl([
        ['catalog.stats'],
        ['catalog.featuredCourses'],
        ['content.promoVideos'],
        ['services.featured'],
        ['catalog.categories'],
        ['content.testimonials'],
      ]),
    },
  ]
}

// /sitemap.xml (an index of files listing every public page, service, published course and the profiles of the
// instructors who teach one) and /robots.txt for search engines.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { countListedInstructors, listInstructorSlugs } from '../catalog/instructors.ts'
import { countPublishedCourses, listPublishedCourseIds } from '../catalog/repository.ts'
import type { HttpDeps } from '../kernel/config.ts'
import { listServiceIds } from '../services/repository.ts'

const STATIC_PATHS = [
  '/',
  '/courses',
  '/services',
  '/pricing',
  '/about',
  '/contact',
  '/features',
  '/examples',
  '/resources',
  '/careers',
  '/blog',
  '/security',
  '/privacy',
  '/terms',
  '/cookies',
]

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** The sitemap protocol's limit per file (https://www.sitemaps.org/protocol.html): 50,000 URLs. */
export const SITEMAP_MAX_URLS = 50_000

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9'

interface Entry {
  loc: string
  lastmod: Date | null
}

function urlset(entries: Entry[]): string {
  const urls = entries.map(
    (e) =>
      `  <url><loc>${escapeXml(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod.toISOString().slice(0, 10)}</lastmod>` : ''}</url>`,
  )
  return `${XML_HEAD}<urlset xmlns="${NS}">\n${urls.join('\n')}\n</urlset>\n`
}

const baseOf = (deps: Pick<HttpDeps, 'config'>) => deps.config.publicUrl.replace(/\/$/, '')

/**
 * /sitemap.xml: an index of sitemap files (decision 0029). One for the site's pages and services, then the
 * published courses by id, `perFile` to a file, so that no file passes the protocol's 50,000 URLs at any
 * catalogue size, then the instructor profiles with a published course, by slug, the same way. The course count
 * is the kept facet counts' sum (no scan of courses).
 */
export async function buildSitemapIndex(
  deps: Pick<HttpDeps, 'db' | 'config'>,
  perFile = SITEMAP_MAX_URLS,
): Promise<string> {
  const base = baseOf(deps)
  const files = Math.ceil((await countPublishedCourses(deps.db)) / perFile)
  const instructorFiles = Math.ceil((await countListedInstructors(deps.db)) / perFile)
  const locs = [
    `${base}/sitemaps/pages.xml`,
    ...Array.from({ length: files }, (_, i) => `${base}/sitemaps/courses-${i + 1}.xml`),
    ...Array.from({ length: instructorFiles }, (_, i) => `${base}/sitemaps/instructors-${i + 1}.xml`),
  ]
  const items = locs.map((loc) => `  <sitemap><loc>${escapeXml(loc)}</loc></sitemap>`)
  return `${XML_HEAD}<sitemapindex xmlns="${NS}">\n${items.join('\n')}\n</sitemapindex>\n`
}

/** The site's public pages and every service. */
export async function buildPagesSitemap(deps: Pick<HttpDeps, 'db' | 'config'>): Promise<string> {
  const base = baseOf(deps)
  const services = await listServiceIds(deps.db)
  return urlset([
    ...STATIC_PATHS.map((path) => ({ loc: `${base}${path}`, lastmod: null })),
    ...services.map((s) => ({ loc: `${base}/service/${encodeURIComponent(s.id)}`, lastmod: s.updated_at })),
  ])
}

/** The `file`-th (from 1) slice of the published courses by id; null past the last one. */
export async function buildCoursesSitemap(
  deps: Pick<HttpDeps, 'db' | 'config'>,
  file: number,
  perFile = SITEMAP_MAX_URLS,
): Promise<string | null> {
  const base = baseOf(deps)
  const courses = await listPublishedCourseIds(deps.db, { offset: (file - 1) * perFile, limit: perFile })
  if (courses.length === 0 && file > 1) return null
  return urlset(courses.map((c) => ({ loc: `${base}/courses/${encodeURIComponent(c.id)}`, lastmod: c.updated_at })))
}

/** The `file`-th (from 1) slice of the instructor profiles with a published course, by slug; null past the last. */
export async function buildInstructorsSitemap(
  deps: Pick<HttpDeps, 'db' | 'config'>,
  file: number,
  perFile = SITEMAP_MAX_URLS,
): Promise<string | null> {
  const base = baseOf(deps)
  const profiles = await listInstructorSlugs(deps.db, { offset: (file - 1) * perFile, limit: perFile })
  if (profiles.length === 0 && file > 1) return null
  return urlset(profiles.map((p) => ({ loc: `${base}/instructors/${encodeURIComponent(p.slug)}`, lastmod: null })))
}

export function buildRobots(publicUrl: string): string {
  const base = publicUrl.replace(/\/$/, '')
  return [
    'User-agent: *',
    'Disallow: /admin',
    'Disallow: /account',
    'Disallow: /cart',
    'Disallow: /payment',
    'Disallow: /studio',
    'Allow: /',
    '',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n')
}

function sendXml(reply: FastifyReply, xml: string) {
  return reply.type('application/xml; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(xml)
}

export function registerSeoRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.get('/sitemap.xml', async (_request, reply) => sendXml(reply, await buildSitemapIndex(deps)))
  app.get('/sitemaps/pages.xml', async (_request, reply) => sendXml(reply, await buildPagesSitemap(deps)))
  app.get<{ Params: { file: string } }>('/sitemaps/courses-:file.xml', async (request, reply) => {
    const file = /^[1-9]\d{0,6}$/.test(request.params.file) ? Number(request.params.file) : 0
    const xml = file ? await buildCoursesSitemap(deps, file) : null
    if (xml === null) return reply.code(404).send({ error: 'Not Found', message: 'No such sitemap' })
    return sendXml(reply, xml)
  })
  app.get<{ Params: { file: string } }>('/sitemaps/instructors-:file.xml', async (request, reply) => {
    const file = /^[1-9]\d{0,6}$/.test(request.params.file) ? Number(request.params.file) : 0
    const xml = file ? await buildInstructorsSitemap(deps, file) : null
    if (xml === null) return reply.code(404).send({ error: 'Not Found', message: 'No such sitemap' })
    return sendXml(reply, xml)
  })
  app.get('/robots.txt', async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send(buildRobots(deps.config.publicUrl)),
  )
}

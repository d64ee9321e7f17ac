// /sitemap.xml (every public page, published course and service) and /robots.txt for search engines.
import type { FastifyInstance } from 'fastify'
import { listPublishedCourseIds } from '../catalog/repository.ts'
import type { HttpDeps } from '../config.ts'
import { listServiceIds } from '../offerings/repository.ts'

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

export async function buildSitemap(deps: Pick<HttpDeps, 'db' | 'config'>): Promise<string> {
  const base = deps.config.publicUrl.replace(/\/$/, '')
  const [courses, services] = await Promise.all([listPublishedCourseIds(deps.db), listServiceIds(deps.db)])
  const entries = [
    ...STATIC_PATHS.map((path) => ({ loc: `${base}${path}`, lastmod: null as Date | null })),
    ...courses.map((c) => ({ loc: `${base}/courses/${encodeURIComponent(c.id)}`, lastmod: c.updated_at })),
    ...services.map((s) => ({ loc: `${base}/service/${encodeURIComponent(s.id)}`, lastmod: s.updated_at })),
  ]
  const urls = entries.map(
    (e) =>
      `  <url><loc>${escapeXml(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod.toISOString().slice(0, 10)}</lastmod>` : ''}</url>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}

export function buildRobots(publicUrl: string): string {
  const base = publicUrl.replace(/\/$/, '')
  return [
    'User-agent: *',
    'Disallow: /admin',
    'Disallow: /account',
    'Disallow: /cart',
    'Disallow: /payment',
    'Allow: /',
    '',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n')
}

export function registerSeoRoutes(app: FastifyInstance, deps: HttpDeps) {
  app.get('/sitemap.xml', async (_request, reply) => {
    const xml = await buildSitemap(deps)
    return reply.type('application/xml; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(xml)
  })
  app.get('/robots.txt', async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send(buildRobots(deps.config.publicUrl)),
  )
}

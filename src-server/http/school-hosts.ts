// A school's own domain (decisions 0063, 0143). Under a verified school hostname the site is the school's: its home
// (/) and the marketplace's catalogue (/courses) are the school's page (/s/{slug}); the marketplace's own pages
// (pricing, services, about, teaching, instructors' profiles, another school's page, another creator's course or
// bundle), the staff area and the studio go to the same address on the platform's host (src-shared/school-site.ts);
// every other page (the school's courses, checkout, learning, certificates) answers as on the main host, with
// host-only cookies (the session cookie never names a Domain). Google's and Facebook's sign-in start on the platform's
// host too: they return there. Unknown hosts are left alone.
// GET /internal/domain-allowed?domain= is Caddy's on-demand TLS `ask`: 200 for a verified school hostname, else 404,
// so certificates are only ever requested for names a school has proved (docs/deploy/Caddyfile).
import type { FastifyInstance } from 'fastify'
import { schoolSitePlace, sitePageOf } from '../../src-shared/school-site.ts'
import { type HostSchool, schoolForHost, schoolHostStanding, schoolSiteServes } from '../flows/school-domain.ts'
import type { DB } from '../kernel/db.ts'
import { hostnameOf, isPlatformHost } from '../kernel/hosts.ts'
import type { HostKind, Redirect, RequestCheck } from '../security/https.ts'

/**
 * Registers Caddy's `ask` route and gives the check of a school's domain (where its home and the marketplace's pages
 * go, or null at once for every other request), which the first hook runs (http/request-checks.ts).
 */
export function registerSchoolHosts(app: FastifyInstance, db: DB, publicUrl: string | undefined): RequestCheck {
  const mainHost = publicUrl ? new URL(publicUrl).hostname.toLowerCase() : null
  const marketplace = publicUrl ? new URL(publicUrl).origin : null

  app.get<{ Querystring: { domain?: string } }>('/internal/domain-allowed', async (request, reply) => {
    const domain = hostnameOf(typeof request.query.domain === 'string' ? request.query.domain : '')
    reply.header('Cache-Control', 'no-store')
    if (!domain || isPlatformHost(domain, mainHost)) return reply.code(404).send({ allowed: false })
    const school = await schoolForHost(db, domain)
    return school ? reply.send({ allowed: true }) : reply.code(404).send({ allowed: false })
  })

  // Whether a Host header is the platform's (its main host, an address, localhost), remembered per header: every
  // page and file asked for on the main host passes here with one map look-up, no promise, no turn (issue 37).
  const platformHosts = new Map<string, boolean>()
  const onPlatform = (host: string) => {
    let platform = platformHosts.get(host)
    if (platform === undefined) {
      platform = isPlatformHost(hostnameOf(host), mainHost)
      if (platformHosts.size >= 256) platformHosts.clear()
      platformHosts.set(host, platform)
    }
    return platform
  }

  /** Where a page of a school's domain goes instead (null: the school's site serves it). */
  async function placeOf(school: HostSchool, url: string): Promise<Redirect | null> {
    const [pathname = '', query] = url.split('?', 2)
    const place = schoolSitePlace(pathname)
    if (!place) return null
    // Concatenated, never resolved: the path was matched by its first segment, so it stays a path on the origin.
    const away = marketplace ? { url: `${marketplace}${url}`, status: 302 as const } : null
    switch (place.to) {
      case 'home': {
        // The school's home keeps the query (a campaign's ?ref=); the catalogue's filters have no meaning there.
        const keep = pathname === '/' && query ? `?${query}` : ''
        return { url: `/s/${encodeURIComponent(school.slug)}${keep}`, status: 302 }
      }
      case 'marketplace':
        return away
      case 'schoolPage':
        return place.slug === school.slug ? null : away
      default:
        // A course's page or player, a bundle's page, a certificate: the school's, or the marketplace's.
        return (await schoolSiteServes(db, school, sitePageOf(place))) ? null : away
    }
  }

  // Every other request passes at once (no promise, no turn: issue 37), in the first hook (http/request-checks.ts).
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null
    const host = request.host ?? ''
    if (onPlatform(host)) return null
    if (!schoolSitePlace(request.url.split('?', 1)[0] ?? '')) return null
    return schoolForHost(db, host).then((school) => (school ? placeOf(school, request.url) : null))
  }
}

/**
 * What a host is to the canonical-host redirect: a verified school's (served as it is), a name a school claims that
 * does not serve it now (sent away only temporarily: it may serve the school again once proved), or neither.
 */
export async function schoolHostKind(db: DB, host: string | undefined): Promise<HostKind> {
  const standing = await schoolHostStanding(db, host ?? '')
  return standing.school ? 'school' : standing.claimed ? 'claimed' : 'other'
}

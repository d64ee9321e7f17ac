// A school's own domain (decision 0063). Under a verified school hostname the site is the school's: its home (/) is
// the school's page (/s/{slug}), the staff area and the studio go to the platform's host, and every other page
// (courses, checkout, learning, certificates) answers as on the main host, with host-only cookies (the session
// cookie never names a Domain). Google's and Facebook's sign-in start on the platform's host too: they return there.
// Unknown hosts are left alone.
// GET /internal/domain-allowed?domain= is Caddy's on-demand TLS `ask`: 200 for a verified school hostname, else 404,
// so certificates are only ever requested for names a school has proved (docs/deploy/Caddyfile).
import type { FastifyInstance } from 'fastify'
import { isClaimableHostname } from '../../src-shared/schemas/domains.ts'
import { schoolForHost } from '../flows/school-domain.ts'
import type { DB } from '../kernel/db.ts'
import { hostnameOf, isPlatformHost } from '../kernel/hosts.ts'
import type { RequestCheck } from '../security/https.ts'

/**
 * Registers Caddy's `ask` route and gives the check of a school's home (its redirect to the school's page, or null at
 * once for every other request), which the first hook runs (http/request-checks.ts).
 */
export function registerSchoolHosts(app: FastifyInstance, db: DB, publicUrl: string | undefined): RequestCheck {
  const mainHost = publicUrl ? new URL(publicUrl).hostname.toLowerCase() : null

  app.get<{ Querystring: { domain?: string } }>('/internal/domain-allowed', async (request, reply) => {
    const domain = hostnameOf(typeof request.query.domain === 'string' ? request.query.domain : '')
    reply.header('Cache-Control', 'no-store')
    if (!domain || isPlatformHost(domain, mainHost)) return reply.code(404).send({ allowed: false })
    const school = await schoolForHost(db, domain)
    return school ? reply.send({ allowed: true }) : reply.code(404).send({ allowed: false })
  })

  // The school's home: its page. Only the bare path; every other page is the same under any host, but the staff area
  // and the studio, which live on the platform's host: its team never types a password under a name a school owner
  // points where they like (sessions made there are that domain's alone: auth/session.ts).
  // Every other request passes at once (no promise, no turn: issue 37), in the first hook (http/request-checks.ts).
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null
    const url = request.url
    const home = url === '/' || url.startsWith('/?')
    // Google's and Facebook's sign-in returns to the platform's host (their registered address): it starts there too.
    const platformOnly = publicUrl !== undefined && /^\/(admin|studio|auth\/google|auth\/facebook)(\/|\?|$)/.test(url)
    if (!home && !platformOnly) return null // (no array made for the others)
    const hostname = hostnameOf(request.host)
    if (isPlatformHost(hostname, mainHost)) return null
    return schoolForHost(db, hostname).then((school) => {
      if (!school) return null
      if (platformOnly) return { url: new URL(url, publicUrl).href, status: 302 }
      const [, query] = url.split('?', 2)
      return { url: `/s/${encodeURIComponent(school.slug)}${query ? `?${query}` : ''}`, status: 302 }
    })
  }
}

/** Whether the host is a verified school's (the canonical-host redirect lets those through). */
export async function isSchoolHost(db: DB, host: string | undefined): Promise<boolean> {
  const hostname = hostnameOf(host)
  return isClaimableHostname(hostname) && (await schoolForHost(db, hostname)) !== null
}

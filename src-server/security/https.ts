// Whether the site is served over HTTPS, which alone justifies HSTS, `upgrade-insecure-requests` and Secure
// cookies. Only an https PUBLIC_URL says so: a production server on plain http (a LAN address, 127.0.0.1 next to
// localhost) would otherwise have every script upgraded to a port that does not answer and its session refused.
import type { FastifyInstance } from 'fastify'
import type { Env } from '../kernel/env.ts'

export function servedOverHttps(env: Pick<Env, 'NODE_ENV'> & Partial<Pick<Env, 'PUBLIC_URL'>>): boolean {
  return env.NODE_ENV === 'production' && (env.PUBLIC_URL?.startsWith('https://') ?? false)
}

/** Probes come from load balancers by address, not by the public name: they are never redirected. */
const PROBES = new Set(['/livez', '/readyz', '/healthz'])

/**
 * In production over https, a request for another host name (an address, an old domain) is sent to the same path
 * on PUBLIC_URL: cookies and links only work on that one origin. Behind a proxy the proxy must pass the original
 * Host (or X-Forwarded-Host with TRUST_PROXY), else every request would look foreign (README, "Two nodes").
 */
export function registerCanonicalHost(
  app: FastifyInstance,
  env: Pick<Env, 'NODE_ENV'> & Partial<Pick<Env, 'PUBLIC_URL'>>,
  /** A school's verified own domain (decision 0063) is served as it is, not sent to PUBLIC_URL. */
  isSchoolHost: (host: string) => Promise<boolean> = async () => false,
): void {
  if (!servedOverHttps(env) || !env.PUBLIC_URL) return
  const canonical = new URL(env.PUBLIC_URL)
  app.addHook('onRequest', async (request, reply) => {
    const host = request.host?.toLowerCase()
    if (!host || host === canonical.host || PROBES.has(request.url.split('?')[0] ?? '')) return
    if (await isSchoolHost(host)) return
    const safe = request.method === 'GET' || request.method === 'HEAD'
    // Concatenated, never resolved: a path such as '//evil.example/' must stay a path on our origin.
    const target = `${canonical.origin}${request.url.startsWith('/') ? request.url : '/'}`
    return reply.redirect(target, safe ? 301 : 308)
  })
}

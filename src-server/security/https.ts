// Whether the site is served over HTTPS, which alone justifies HSTS, `upgrade-insecure-requests` and Secure
// cookies. Only an https PUBLIC_URL says so: a production server on plain http (a LAN address, 127.0.0.1 next to
// localhost) would otherwise have every script upgraded to a port that does not answer and its session refused.
import type { FastifyRequest } from 'fastify'
import type { Env } from '../kernel/env.ts'

export function servedOverHttps(env: Pick<Env, 'NODE_ENV'> & Partial<Pick<Env, 'PUBLIC_URL'>>): boolean {
  return env.NODE_ENV === 'production' && (env.PUBLIC_URL?.startsWith('https://') ?? false)
}

/**
 * Asked by address, not by the public name, so never redirected: load balancers' probes, and Caddy's on-demand TLS
 * `ask` (docs/deploy/Caddyfile asks http://127.0.0.1:3000; Caddy follows no redirect, so a redirect there refused every
 * school domain its certificate).
 */
const ASKED_BY_ADDRESS = new Set(['/livez', '/readyz', '/healthz', '/internal/domain-allowed'])

/** Where a request is sent instead of being answered, and with which status. */
export interface Redirect {
  url: string
  status: 301 | 302 | 307 | 308
  /** Sent with Cache-Control: no-store (a redirect that stops holding once something changes). */
  noStore?: boolean
}

/**
 * What a foreign host is to the canonical-host redirect (decision 0143): a school's verified domain (served as it is),
 * a name a school claims that does not serve it now (not proved yet, lapsed, its owner's plan lapsed: it may serve the
 * school again, so it is sent away temporarily and the answer is not kept), or anything else (the platform's old or
 * alternate names, addresses: sent away for good).
 */
export type HostKind = 'school' | 'claimed' | 'other'

/** A check of the server's first hook (http/request-checks.ts): null at once when the request goes on, else a promise
 * of where it is sent instead (null: it goes on after all). */
export type RequestCheck = (request: FastifyRequest) => Promise<Redirect | null> | null

/**
 * In production over https, a request for another host name (an address, an old domain) is sent to the same path
 * on PUBLIC_URL: cookies and links only work on that one origin. Behind a proxy the proxy must pass the original
 * Host (or X-Forwarded-Host with TRUST_PROXY), else every request would look foreign (README, "Two nodes").
 * The check of every request's first hook (http/request-checks.ts), or null when there is no canonical host: it gives
 * null at once for the canonical host and what is asked by address, else a promise of the redirect (null for a school's own domain).
 */
export function canonicalHostCheck(
  env: Pick<Env, 'NODE_ENV'> & Partial<Pick<Env, 'PUBLIC_URL'>>,
  /** A school's verified own domain (decision 0063) is served as it is, not sent to PUBLIC_URL. */
  hostKind: (host: string) => Promise<HostKind> = async () => 'other',
): RequestCheck | null {
  if (!servedOverHttps(env) || !env.PUBLIC_URL) return null
  const canonical = new URL(env.PUBLIC_URL)
  return (request) => {
    const host = request.host?.toLowerCase()
    if (!host || host === canonical.host || ASKED_BY_ADDRESS.has(request.url.split('?')[0] ?? '')) return null
    return hostKind(host).then((kind): Redirect | null => {
      if (kind === 'school') return null
      // Concatenated, never resolved: a path such as '//evil.example/' must stay a path on our origin.
      const url = `${canonical.origin}${request.url.startsWith('/') ? request.url : '/'}`
      // A school's name that does not serve it now: a browser must not keep a permanent redirect, or the school's
      // learners would still land on the platform after it proves the name again.
      if (kind === 'claimed') return { url, status: 307, noStore: true }
      const safe = request.method === 'GET' || request.method === 'HEAD'
      return { url, status: safe ? 301 : 308 }
    })
  }
}

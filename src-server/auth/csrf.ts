// Same-origin check for state-changing requests (CSRF). Browsers send Origin on every POST and
// Sec-Fetch-Site on every request; a cross-site form or fetch is refused before it reaches a handler.
import type { FastifyRequest } from 'fastify'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function isSameOriginRequest(request: FastifyRequest, allowedOrigins: readonly string[]): boolean {
  if (SAFE_METHODS.has(request.method)) return true
  const fetchSite = request.headers['sec-fetch-site']
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return false
  const origin = request.headers.origin
  if (!origin) return fetchSite === 'same-origin'
  const own = `${request.protocol}://${request.host}`
  return origin === own || allowedOrigins.includes(origin)
}

// Which site a request's Host names: the platform's (its main host, loopback, addresses) or possibly a school's own
// domain (decision 0063). Shared by the host routing and the sessions, which belong to the site they were made on.
import { isClaimableHostname } from '../../src-shared/schemas/domains.ts'

/** The Host header's name, lower-case, without port or trailing dot. */
export function hostnameOf(host: string | undefined): string {
  return (host ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '')
}

/** Hosts that are never a school's: the main host, loopback and addresses. */
export function isPlatformHost(hostname: string, mainHost: string | null): boolean {
  if (hostname === mainHost) return true
  return !isClaimableHostname(hostname)
}

/**
 * The site a session made on this Host belongs to: null for the platform's hosts, else the hostname (a school's
 * domain; an unknown name is never served as a school's, so binding to it costs nothing).
 */
export function sessionSiteOf(host: string | undefined, publicUrl: string): string | null {
  const hostname = hostnameOf(host)
  return isPlatformHost(hostname, mainHostOf(publicUrl)) ? null : hostname
}

// PUBLIC_URL's hostname, parsed once: every tRPC request's context asks (issue 37).
const mainHosts = new Map<string, string>()
export function mainHostOf(publicUrl: string): string {
  let host = mainHosts.get(publicUrl)
  if (host === undefined) {
    host = new URL(publicUrl).hostname.toLowerCase()
    if (mainHosts.size < 16) mainHosts.set(publicUrl, host)
  }
  return host
}

// Where a webhook may go (decision 0061). An endpoint's URL is https; plain http only to a loopback address when
// private targets are allowed (outside production, or WEBHOOKS_ALLOW_PRIVATE=on for the end-to-end run). At send
// time every address the host resolves to is checked again and the connection goes to the checked address, so a
// DNS answer cannot point a public name at the internal network (SSRF; the guard is kernel/private-targets.ts).
import { isIP } from 'node:net'
import { DomainError } from '../kernel/errors.ts'
import { hostOf, isPrivateAddress } from '../kernel/private-targets.ts'

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || (isIP(host) === 4 && host.startsWith('127.')) || host === '::1'
}

/** Refuses a URL an endpoint may not have: not https (http only on loopback when allowed), credentials, a private IP. */
export function assertEndpointUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new DomainError('invalid', 'Enter a full URL, starting with https://', { field: 'url' })
  }
  const host = hostOf(url)
  if (url.username || url.password) {
    throw new DomainError('invalid', 'Leave user names and passwords out of the URL', { field: 'url' })
  }
  const loopbackHttp = url.protocol === 'http:' && allowPrivate && isLoopbackHost(host)
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw new DomainError('invalid', 'The URL must start with https://', { field: 'url' })
  }
  if (
    !allowPrivate &&
    (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && isPrivateAddress(host)))
  ) {
    throw new DomainError('invalid', 'The URL must point to a public address', { field: 'url' })
  }
  return url
}

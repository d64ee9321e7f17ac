// Outgoing requests to addresses a customer names (webhook endpoints, decision 0061; a school's OpenID provider,
// decision 0062) must not reach the internal network (server-side request forgery). Every address a host resolves
// to is checked and the connection goes to the checked address, so a DNS answer cannot point a public name at a
// private one between the check and the connection. The one module for it: webhooks and SSO both use it.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { BlockList, isIP } from 'node:net'

const blocked = new BlockList()
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4')
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
  // Forms that carry an IPv4 address inside (IPv4-compatible ::a.b.c.d, Teredo, 6to4, NAT64's local prefix) or
  // discard it: none is a public endpoint today, and each could reach a private IPv4 host through a relay.
  ['::', 96],
  ['100::', 64],
  ['2001::', 32],
  ['2002::', 16],
  ['64:ff9b:1::', 48],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6')

/** Whether an IP address is loopback, private, link-local, reserved or multicast (not on the public internet). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return blocked.check(address, 'ipv4')
  if (family === 6) {
    const mapped = address.toLowerCase().match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/)
    if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4')
    return blocked.check(address, 'ipv6')
  }
  return true
}

/** A URL's host without an IPv6 address's brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '')
}

/** Whether the URL's host is an address written out (no look-up) that is private. */
export function isPrivateLiteral(url: URL): boolean {
  const host = hostOf(url)
  return isIP(host) !== 0 && isPrivateAddress(host)
}

export class PrivateTargetError extends Error {
  override readonly name = 'PrivateTargetError'
}

/** Whether an error, or any error in its chain of causes, is a refused private target. */
export function isPrivateTargetError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    if (current instanceof PrivateTargetError || (current as { name?: unknown }).name === 'PrivateTargetError') {
      return true
    }
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/**
 * A `lookup` for http.request: resolves the host and refuses it when any address is private (unless allowed), so
 * the socket connects only to an address that was checked.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: object,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const list = addresses as LookupAddress[]
      if (!allowPrivate && list.some((entry) => isPrivateAddress(entry.address))) {
        return callback(new PrivateTargetError(`${hostname} resolves to a private address`), [])
      }
      if ((options as { all?: boolean }).all) return callback(null, list)
      const first = list[0]
      if (!first) return callback(new PrivateTargetError(`${hostname} has no address`), [])
      callback(null, first.address, first.family)
    })
  }
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

export interface GuardedFetchInit {
  method?: string
  headers?: Record<string, string>
  body?: string | URLSearchParams | null
  signal?: AbortSignal
}

/**
 * A small `fetch` over node:http(s) whose connections go only to checked addresses (guardedLookup), for libraries
 * that take a custom fetch (openid-client's `customFetch`). Redirects are not followed; the answer is read whole, up
 * to `maxBytes` (1 MB), and refused beyond it.
 */
export function guardedFetch(allowPrivate: boolean, maxBytes = 1024 * 1024) {
  return (input: string | URL, init: GuardedFetchInit = {}): Promise<Response> => {
    const url = new URL(input)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return Promise.reject(new TypeError(`Unsupported protocol ${url.protocol}`))
    }
    // An address written in the URL is connected to without a look-up: check it here.
    if (!allowPrivate && isPrivateLiteral(url)) {
      return Promise.reject(new PrivateTargetError(`${hostOf(url)} is a private address`))
    }
    const body =
      init.body instanceof URLSearchParams ? init.body.toString() : typeof init.body === 'string' ? init.body : null
    const headers: Record<string, string | number> = { ...init.headers }
    if (init.body instanceof URLSearchParams && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8'
    }
    if (body !== null) headers['content-length'] = Buffer.byteLength(body)
    const client = url.protocol === 'https:' ? https : http
    return new Promise<Response>((resolve, reject) => {
      const req = client.request(
        url,
        {
          method: init.method ?? 'GET',
          headers,
          agent: false,
          lookup: guardedLookup(allowPrivate) as never,
          signal: init.signal,
        },
        (res) => {
          const chunks: Buffer[] = []
          let received = 0
          res.on('data', (chunk: Buffer) => {
            received += chunk.length
            if (received > maxBytes) {
              res.destroy()
              reject(new Error(`The answer from ${url.host} is larger than ${maxBytes} bytes`))
              return
            }
            chunks.push(chunk)
          })
          res.on('error', reject)
          res.on('end', () => {
            const status = res.statusCode ?? 0
            const responseHeaders = new Headers()
            for (const [name, value] of Object.entries(res.headers)) {
              if (value === undefined) continue
              for (const item of Array.isArray(value) ? value : [value]) responseHeaders.append(name, item)
            }
            try {
              resolve(
                new Response(NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks), {
                  status,
                  statusText: res.statusMessage ?? '',
                  headers: responseHeaders,
                }),
              )
            } catch (error) {
              reject(error)
            }
          })
        },
      )
      req.on('error', reject)
      req.end(body ?? undefined)
    })
  }
}

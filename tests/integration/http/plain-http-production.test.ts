// A production server on plain http (PUBLIC_URL http:// or unset) works under whichever host name it is opened
// by: no HSTS, no `upgrade-insecure-requests`, no Secure session cookie. An https PUBLIC_URL still gets all three,
// and a request for another host name is redirected to PUBLIC_URL.
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { checkSchoolDomain } from '../../../src-server/flows/school-domain.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { setCookieFor, startTestServer, type TestServer, trpcPost } from '../../support/http.ts'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

async function withProductionServer(
  publicUrl: string | undefined,
  use: (server: TestServer) => Promise<void>,
  env: { TRUST_PROXY?: boolean } = {},
) {
  const server = await startTestServer(database.db, { env: { NODE_ENV: 'production', PUBLIC_URL: publicUrl, ...env } })
  try {
    await use(server)
  } finally {
    await server.stop()
  }
}

/** A GET under another Host header (fetch does not let a page's Host be set). */
function call(base: string, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const sent = request(`${base}${path}`, { headers }, (response) => {
      response.resume()
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }))
    })
    sent.on('error', reject)
    sent.end()
  })
}

/** The same server under its other loopback name: 127.0.0.1 and localhost. */
function otherLoopbackName(baseUrl: string): string {
  const url = new URL(baseUrl)
  url.hostname = url.hostname === 'localhost' ? '127.0.0.1' : 'localhost'
  return url.origin
}

/** Logs in through `origin` as the page opened there would, and returns the session's Set-Cookie line. */
async function logInThrough(origin: string, headers: Record<string, string> = { origin }): Promise<string | undefined> {
  const user = await createUser(database.db)
  const response = await trpcPost(origin, 'auth.login', { email: user.email, password: user.password }, headers)
  expect(response.status).toBe(200)
  return setCookieFor(response, SESSION_COOKIE)
}

describe.each([
  ['unset', undefined],
  ['http', 'http://localhost:3000'],
])('production with PUBLIC_URL %s', (_label, publicUrl) => {
  it('sends no HSTS, no upgrade-insecure-requests and no Secure cookie under either loopback name', async () => {
    await withProductionServer(publicUrl, async (server) => {
      for (const origin of [server.baseUrl, otherLoopbackName(server.baseUrl)]) {
        const page = await fetch(`${origin}/healthz`)
        expect(page.status).toBe(200)
        expect(page.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests')
        expect(page.headers.get('strict-transport-security')).toBeNull()

        const session = await logInThrough(origin)
        expect(session).toMatch(/HttpOnly/i)
        expect(session).not.toMatch(/;\s*Secure/i)
      }
    })
  })
})

describe('production with an https PUBLIC_URL', () => {
  // As behind a TLS-terminating proxy that passes the public host name on.
  const viaProxy = { 'x-forwarded-host': 'shop.example.com', 'x-forwarded-proto': 'https' }

  it('sends HSTS, upgrade-insecure-requests and a Secure session cookie', async () => {
    await withProductionServer(
      'https://shop.example.com',
      async (server) => {
        const page = await fetch(`${server.baseUrl}/healthz`)
        expect(page.headers.get('content-security-policy')).toContain('upgrade-insecure-requests')
        expect(page.headers.get('strict-transport-security')).toContain('max-age=15552000')
        const session = await logInThrough(server.baseUrl, { ...viaProxy, origin: 'https://shop.example.com' })
        expect(session).toMatch(/;\s*Secure/i)
      },
      { TRUST_PROXY: true },
    )
  })

  it('redirects a request for another host name to the same path on PUBLIC_URL; probes and Caddy’s ask answer anyway', async () => {
    await withProductionServer('https://shop.example.com', async (server) => {
      for (const origin of [server.baseUrl, otherLoopbackName(server.baseUrl)]) {
        const page = await fetch(`${origin}/courses?search=seo`, { redirect: 'manual' })
        expect(page.status).toBe(301)
        expect(page.headers.get('location')).toBe('https://shop.example.com/courses?search=seo')
        // A path that looks like another host stays a path on ours.
        const tricky = await fetch(`${origin}//evil.example/x`, { redirect: 'manual' })
        expect(tricky.headers.get('location')).toBe('https://shop.example.com//evil.example/x')
        const post = await fetch(`${origin}/trpc/auth.logout`, {
          method: 'POST',
          headers: { origin },
          redirect: 'manual',
        })
        expect(post.status).toBe(308)
        for (const probe of ['/livez', '/readyz', '/healthz'])
          expect((await fetch(`${origin}${probe}`)).status).toBe(200)
        // Caddy's on-demand TLS asks by address and follows no redirect: the app's own answer (no school: 404).
        const ask = await fetch(`${origin}/internal/domain-allowed?domain=nobody.example.test`, { redirect: 'manual' })
        expect(ask.status).toBe(404)
      }
    })
  })

  it('sends a school’s name that does not serve it (yet) away only temporarily, and serves it once proved', async () => {
    const owner = await createCreator(database.db, { plan: 'pro' })
    await (await callerAs(database.db, owner)).domains.add({ hostname: 'pending.example.test' })
    await withProductionServer('https://shop.example.com', async (server) => {
      const ask = (host: string) =>
        call(server.baseUrl, '/courses?search=seo', { host }).then((answer) => ({
          status: answer.status,
          location: answer.headers.location,
          cacheControl: answer.headers['cache-control'],
        }))
      // Claimed, not proved: a browser must not keep the redirect (decision 0143), or the school's learners would
      // still be sent to the platform once the name serves the school.
      expect(await ask('pending.example.test')).toEqual({
        status: 307,
        location: 'https://shop.example.com/courses?search=seo',
        cacheControl: 'no-store',
      })
      // Any other name (the platform's old or alternate names) is sent away for good, as before.
      expect((await ask('old-name.example.test')).status).toBe(301)
      // Proved: served under its own name.
      const token = (await (await callerAs(database.db, owner)).domains.mine()).domain?.recordValue ?? ''
      const lookup = async () => [[token]]
      expect(await checkSchoolDomain(database.db, owner.id, lookup, 'https://shop.example.com')).toMatchObject({
        verified: true,
      })
      const served = await ask('pending.example.test')
      expect(served.status).not.toBe(307)
      expect(served.status).not.toBe(301)
    })
  })

  it('serves the public host name itself (passed on by a proxy) without a redirect', async () => {
    await withProductionServer(
      'https://shop.example.com',
      async (server) => {
        const page = await fetch(`${server.baseUrl}/livez`, { headers: viaProxy, redirect: 'manual' })
        expect(page.status).toBe(200)
        const other = await fetch(`${server.baseUrl}/courses`, { headers: viaProxy, redirect: 'manual' })
        expect(other.status).not.toBe(301)
      },
      { TRUST_PROXY: true },
    )
  })
})

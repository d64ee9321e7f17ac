// The one first hook (http/request-checks.ts, decision 0076): every answer starts with its X-Request-Id and the
// security headers, in that order (the API block for tRPC's JSON, decision 0079); a cross-site write is refused with both; a redirect of a foreign host carries
// the id and not the security headers, as when these were hooks of their own.
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { apiSecurityHeaders, securityHeaders } from '../../../src-server/security/headers.ts'
import { createTestDatabase } from '../../support/db.ts'
import { startTestServer } from '../../support/http.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()

function call(base: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; names: string[]; headers: Record<string, unknown> }>((resolve, reject) => {
    const sent = request(
      `${base}${path}`,
      { method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        response.resume()
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            names: response.rawHeaders.filter((_, index) => index % 2 === 0).map((name) => name.toLowerCase()),
            headers: response.headers,
          }),
        )
      },
    )
    sent.on('error', reject)
    sent.end()
  })
}

const security = securityHeaders({ secure: false, extraImageOrigins: [] })
const api = apiSecurityHeaders(security)
const searchPath = `/trpc/catalog.search?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: {} }))}`

describe('the first hook', () => {
  it('starts every answer with X-Request-Id and the security headers, computed or kept', async () => {
    for (const attempt of [1, 2]) {
      const answer = await call(site.baseUrl, searchPath)
      expect(answer.status, `attempt ${attempt}`).toBe(200)
      expect(answer.names.slice(0, 1 + Object.keys(api).length)).toEqual(['x-request-id', ...Object.keys(api)])
      expect(answer.headers).toMatchObject(api)
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    }
    // Anything else (pages, files, health) gets the pages' block.
    const other = await call(site.baseUrl, '/livez')
    expect(other.status).toBe(200)
    expect(other.names.slice(0, 1 + Object.keys(security).length)).toEqual(['x-request-id', ...Object.keys(security)])
    expect(other.headers).toMatchObject(security)
    expect(security['content-security-policy']).toContain("default-src 'self'")
  })

  it("gives JSON answers the API block: nothing allowed, no framing, no sniffing, and none of the pages' headers", async () => {
    const answer = await call(site.baseUrl, searchPath)
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
    expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin')
    for (const pageOnly of ['cross-origin-opener-policy', 'referrer-policy', 'x-frame-options', 'origin-agent-cluster'])
      expect(answer.headers[pageOnly], pageOnly).toBeUndefined()
    // Over https the API block keeps the pages' HSTS.
    const secure = securityHeaders({ secure: true })
    expect(apiSecurityHeaders(secure)['strict-transport-security']).toBe(secure['strict-transport-security'])
    expect(secure['strict-transport-security']).toContain('max-age=15552000')
    expect(api['strict-transport-security']).toBeUndefined()
  })

  it('refuses a cross-site write with the id and the security headers', async () => {
    const refused = await call(site.baseUrl, '/trpc/auth.logout', {
      method: 'POST',
      headers: { origin: 'https://elsewhere.example', 'content-type': 'application/json' },
    })
    expect(refused.status).toBe(403)
    expect(refused.names.slice(0, 1 + Object.keys(api).length)).toEqual(['x-request-id', ...Object.keys(api)])
    // A same-origin one goes on.
    const allowed = await call(site.baseUrl, '/livez', { headers: { origin: 'http://storefront.test' } })
    expect(allowed.status).toBe(200)
    expect(allowed.headers).toMatchObject(security)
  })

  it('redirects a foreign host over https with the id and without the security headers', async () => {
    const database = await createTestDatabase()
    const server = await startTestServer(database.db, {
      env: { NODE_ENV: 'production', PUBLIC_URL: 'https://storefront.test' },
    })
    try {
      const redirected = await call(server.baseUrl, '/courses?page=2')
      expect(redirected.status).toBe(301)
      expect(redirected.headers.location).toBe('https://storefront.test/courses?page=2')
      expect(redirected.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
      expect(redirected.headers['content-security-policy']).toBeUndefined()
      const canonical = await call(server.baseUrl, '/livez', { headers: { host: 'storefront.test' } })
      expect(canonical.status).toBe(200)
      expect(canonical.headers['strict-transport-security']).toBeDefined()
      expect(canonical.names[0]).toBe('x-request-id')
    } finally {
      await server.stop()
      await database.close()
    }
  })
})

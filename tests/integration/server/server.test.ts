// Boots the real Fastify server on a free port against a fresh database.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createServer, type Server } from '../../../src-server/server.ts'
import { createTestDatabase } from '../../support/db.ts'

let database: DatabaseHandle
let server: Server
let baseUrl: string
let clientDir: string

beforeAll(async () => {
  database = await createTestDatabase()
  clientDir = await mkdtemp(path.join(os.tmpdir(), 'storefront-client-'))
  await mkdir(path.join(clientDir, 'assets'))
  await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><title>app shell</title>')
  await writeFile(path.join(clientDir, 'assets', 'main-abc123.js'), 'console.log(1)')
  await writeFile(path.join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  server = await createServer({
    env: { NODE_ENV: 'test', PORT: 0, HOST: '127.0.0.1', CLIENT_DIR: clientDir, LOG_LEVEL: 'silent' },
    db: database.db,
    logger: false,
  })
  baseUrl = await server.start()
})
afterAll(async () => {
  await server.stop()
  await database.close()
  await rm(clientDir, { recursive: true, force: true })
})

describe('HTTP server', () => {
  it('GET /healthz is liveness; GET /readyz checks the database', async () => {
    const health = await fetch(`${baseUrl}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const ready = await fetch(`${baseUrl}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ok', database: 'ok' })
  })

  it('serves tRPC at /trpc', async () => {
    const response = await fetch(`${baseUrl}/trpc/catalog.featuredCourses`)
    expect(response.status).toBe(200)
    const body = (await response.json()) as { result: { data: { id: string }[] } }
    // The seed's six featured courses, in their order.
    expect(body.result.data.map((c) => c.id)).toEqual([
      'python-data-analysis',
      'website-seo',
      'modern-react-typescript',
      'ui-ux-design-figma',
      'uk-limited-company-formation',
      'ai-for-content-creators',
    ])
  })

  it('answers bad input with 400 and the zod field errors', async () => {
    const input = encodeURIComponent(JSON.stringify({ limit: 'many' }))
    const response = await fetch(`${baseUrl}/trpc/catalog.featuredCourses?input=${input}`)
    expect(response.status).toBe(400)
    const body = (await response.json()) as {
      error: { data: { code: string; zodError: { fieldErrors: Record<string, string[]> } } }
    }
    expect(body.error.data.code).toBe('BAD_REQUEST')
    expect(body.error.data.zodError.fieldErrors.limit).toEqual(['Invalid input: expected number, received string'])
  })

  it('serves hashed assets with a year-long immutable cache', async () => {
    const response = await fetch(`${baseUrl}/assets/main-abc123.js`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toContain('immutable')
    expect(response.headers.get('cache-control')).toContain('max-age=31536000')
  })

  it('answers client routes with the app shell, uncached (an unknown page with 404)', async () => {
    for (const [route, status] of [
      ['/', 200],
      ['/courses/website-seo', 200],
      ['/no/such/page', 404],
    ] as const) {
      const response = await fetch(`${baseUrl}${route}`)
      expect(response.status).toBe(status)
      expect(response.headers.get('content-type')).toContain('text/html')
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(await response.text()).toContain('app shell')
    }
  })

  it('gives a real 404 for a missing asset or API path, never the HTML shell', async () => {
    for (const route of ['/assets/missing-999.js', '/trpc/catalog.nothing', '/api/nothing', '/logo.png']) {
      const response = await fetch(`${baseUrl}${route}`)
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).not.toContain('text/html')
    }
  })
})

describe('HTTP server with the database gone', () => {
  it('reports 503 on /readyz instead of hanging, and stays live on /healthz and /livez', async () => {
    const broken = await createTestDatabase()
    const brokenServer = await createServer({
      env: { NODE_ENV: 'test', PORT: 0, HOST: '127.0.0.1', CLIENT_DIR: clientDir, LOG_LEVEL: 'silent' },
      db: broken.db,
      logger: false,
    })
    const url = await brokenServer.start()
    await broken.close()
    try {
      const ready = await fetch(`${url}/readyz`)
      expect(ready.status).toBe(503)
      expect(ready.headers.get('retry-after')).not.toBeNull()
      expect(await ready.json()).toMatchObject({ status: 'unavailable', database: 'unavailable' })
      for (const probe of ['/healthz', '/livez']) {
        const live = await fetch(`${url}${probe}`)
        expect(live.status).toBe(200)
        expect(await live.json()).toEqual({ status: 'ok' })
      }
    } finally {
      await brokenServer.stop()
    }
  })
})

// The database unreachable (nothing listening on its port, or the embedded database closed): every tRPC call and
// every plain route that needs it answers 503 with Retry-After and the shared message, never 500 and never the
// driver's text; /healthz and /livez stay up while /readyz reports the outage.
import { createServer as createNetServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { openDatabase } from '../../../src-server/kernel/db.ts'
import { RETRY_AFTER_SECONDS } from '../../../src-server/kernel/db-unavailable.ts'
import { stripeSignatureHeader } from '../../../src-server/payments/stripe.ts'
import { appRouter } from '../../../src-server/routers/_app.ts'
import { SERVICE_UNAVAILABLE_MESSAGE } from '../../../src-shared/errors.ts'
import { createTestDatabase } from '../../support/db.ts'
import {
  type FullServer,
  startFullServer,
  TEST_ORIGIN,
  UNKNOWN_SESSION_COOKIE,
  WEBHOOK_SECRET,
} from '../../support/full-server.ts'
import { validValues } from '../../support/malformed.ts'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

/** A local port with nothing listening: connecting is refused at once (`connect ECONNREFUSED 127.0.0.1:…`). */
async function closedPort(): Promise<number> {
  const probe = createNetServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

interface Procedure {
  path: string
  type: string
  input: unknown
}

function procedures(): Procedure[] {
  const all = appRouter._def.procedures as unknown as Record<string, { _def: { type: string; inputs: unknown[] } }>
  return Object.entries(all).map(([path, procedure]) => {
    const schema = procedure._def.inputs[0] as Parameters<typeof validValues>[0] | undefined
    return { path, type: procedure._def.type, input: schema ? validValues(schema)[0] : undefined }
  })
}

function call(baseUrl: string, procedure: Procedure, cookie?: string) {
  const headers: Record<string, string> = { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) }
  if (procedure.type === 'query') {
    const query = procedure.input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(procedure.input))}`
    return fetch(`${baseUrl}/trpc/${procedure.path}${query}`, { headers })
  }
  return fetch(`${baseUrl}/trpc/${procedure.path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(procedure.input ?? null),
  })
}

async function expectUnavailable(response: Response, label: string) {
  const text = await response.text()
  expect({ label, status: response.status }).toEqual({ label, status: 503 })
  expect(response.headers.get('retry-after'), label).toBe(String(RETRY_AFTER_SECONDS))
  expect(text, label).toContain(SERVICE_UNAVAILABLE_MESSAGE)
  expect(text, label).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|PGlite/)
}

describe('PostgreSQL unreachable (connection refused)', () => {
  let database: Awaited<ReturnType<typeof openDatabase>>
  let app: FullServer

  beforeAll(async () => {
    const port = await closedPort()
    database = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/storefront`, poolSize: 2 })
    app = await startFullServer(database.db, { env: { NODE_ENV: 'production' } })
  })
  afterAll(async () => {
    await app.stop()
    await database.close()
  })

  it('answers every procedure of a signed-in visitor 503 SERVICE_UNAVAILABLE with Retry-After', async () => {
    for (const procedure of procedures()) {
      const response = await call(app.baseUrl, procedure, UNKNOWN_SESSION_COOKIE)
      const body = (await response.clone().json()) as { error: { message: string; data: { code: string } } }
      expect(body.error.data.code, procedure.path).toBe('SERVICE_UNAVAILABLE')
      await expectUnavailable(response, procedure.path)
    }
  })

  it('answers a visitor 503 (or a database-free answer) on every procedure, never 500', async () => {
    const statuses = new Map<number, string[]>()
    for (const procedure of procedures()) {
      const response = await call(app.baseUrl, procedure)
      if (response.status === 503) await expectUnavailable(response, procedure.path)
      statuses.set(response.status, [...(statuses.get(response.status) ?? []), procedure.path])
    }
    expect([...statuses.keys()].filter((status) => status >= 500 && status !== 503)).toEqual([])
    expect(statuses.get(503)).toContain('catalog.search')
  })

  it('answers the plain routes that need the database 503 with Retry-After', async () => {
    const form = () => {
      const data = new FormData()
      data.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'a.png')
      return data
    }
    const headers = { origin: TEST_ORIGIN, cookie: UNKNOWN_SESSION_COOKIE }
    const payload = JSON.stringify({
      id: 'evt_outage',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: 'cs_outage', object: 'checkout.session', metadata: { orderId: crypto.randomUUID() } } },
    })
    const signature = stripeSignatureHeader(payload, WEBHOOK_SECRET)
    const requests: [string, RequestInit][] = [
      ['/readyz', {}],
      ['/sitemap.xml', {}],
      ['/api/profile/avatar', { method: 'POST', headers, body: form() }],
      ['/api/admin/course-image', { method: 'POST', headers, body: form() }],
      ['/api/stripe/webhook', { method: 'POST', headers: { 'stripe-signature': signature }, body: payload }],
      // A certificate's PDF: the outage, not "not found" (a learner would think the certificate gone).
      [`/api/certificates/${crypto.randomUUID()}/pdf`, {}],
    ]
    for (const [path, init] of requests) await expectUnavailable(await fetch(`${app.baseUrl}${path}`, init), path)
  })

  it('keeps the liveness probes (/healthz, /livez) and the app shell up while /readyz reports the outage', async () => {
    for (const probe of ['/healthz', '/livez']) {
      const live = await fetch(`${app.baseUrl}${probe}`)
      expect(live.status).toBe(200)
      expect(await live.json()).toEqual({ status: 'ok' })
    }
    expect((await fetch(`${app.baseUrl}/courses`)).status).toBe(200)
    await expectUnavailable(await fetch(`${app.baseUrl}/readyz`), '/readyz')
  })
})

describe.runIf(inject('testDb').kind === 'pglite')('embedded database closed', () => {
  it('answers 503 with Retry-After instead of 500', async () => {
    const database = await createTestDatabase()
    const app = await startFullServer(database.db)
    try {
      expect((await fetch(`${app.baseUrl}/readyz`)).status).toBe(200)
      await database.pglite!.close()
      const search = { path: 'catalog.search', type: 'query', input: {} }
      await expectUnavailable(await call(app.baseUrl, search), 'catalog.search')
      await expectUnavailable(await fetch(`${app.baseUrl}/readyz`), '/readyz')
    } finally {
      await app.stop()
      await database.close()
    }
  })
})

// Production never shows a client the text of an unexpected error (a database or storage message): it answers a
// generic message and the request id, which is also the X-Request-Id header and the id in the log. Messages we
// wrote (domain errors, zod's field messages) are kept.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { PAYOUTS_STRIPE_FAILED } from '../../../src-server/flows/creator-payouts.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { defaultPayments } from '../../../src-server/payments/config.ts'
import { createStripeApi } from '../../../src-server/payments/stripe.ts'
import { appRouter } from '../../../src-server/routers/_app.ts'
import { createLocalStorage } from '../../../src-server/storage/storage.ts'
import { type Context, createContextInner } from '../../../src-server/trpc/context.ts'
import { INTERNAL_ERROR_MESSAGE } from '../../../src-shared/errors.ts'
import { TRPC_MAX_BATCH_SIZE } from '../../../src-shared/trpc-limits.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createSessionToken, createUser } from '../../support/factories.ts'
import { freePort } from '../../support/free-port.ts'
import { type FullServer, startFullServer, TEST_ORIGIN } from '../../support/full-server.ts'
import { startTestServer, trpcPost } from '../../support/http.ts'
import { captureJsonLogs } from '../../support/json-logs.ts'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)
const S3_REFUSAL =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message><BucketName>private-bucket</BucketName></Error>'

let database: DatabaseHandle
let production: FullServer
let development: FullServer
let storageDir: string

interface ErrorBody {
  error: { message: string; data: { code: string; requestId: string | null; stack?: string; zodError: unknown } }
}

beforeAll(async () => {
  database = await createTestDatabase()
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'storefront-refusing-s3-'))
  // Storage as a bucket that refuses writes with S3's XML (the text the issue saw reach the browser).
  const storage = {
    ...createLocalStorage(storageDir),
    async put(): Promise<string> {
      throw new Error(`S3 PUT failed with 403: ${S3_REFUSAL}`)
    },
  }
  production = await startFullServer(database.db, { env: { NODE_ENV: 'production' }, storage })
  development = await startFullServer(database.db)
  // A broken schema gives the database's own error text ('relation "testimonials" does not exist').
  await sql`alter table testimonials rename to testimonials_moved`.execute(database.db)
})
afterAll(async () => {
  await production.stop()
  await development.stop()
  await database.close()
  await rm(storageDir, { recursive: true, force: true })
})

describe('tRPC errors in production', () => {
  it('answer an unexpected failure with a generic message and the request id, never its text', async () => {
    const response = await fetch(`${production.baseUrl}/trpc/content.testimonials`)
    const text = await response.text()
    const body = JSON.parse(text) as ErrorBody
    expect(response.status).toBe(500)
    expect(body.error.message).toBe(INTERNAL_ERROR_MESSAGE)
    expect(text).not.toMatch(/relation|does not exist|testimonials_moved|42P01/)
    expect(body.error.data.stack).toBeUndefined()
    expect(body.error.data.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(response.headers.get('x-request-id')).toBe(body.error.data.requestId)
  })

  it('keep a refusal written for the client, without the stack tRPC adds in a process not started in production', async () => {
    const response = await fetch(`${production.baseUrl}/trpc/auth.changePassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: production.baseUrl },
      body: JSON.stringify({ currentPassword: 'x', newPassword: 'y' }),
    })
    const body = (await response.json()) as ErrorBody
    expect(response.status).toBe(401)
    expect(body.error.data.code).toBe('UNAUTHORIZED')
    expect(body.error.message).not.toBe(INTERNAL_ERROR_MESSAGE)
    expect(body.error.data.stack).toBeUndefined()
  })

  it('keep the detail outside production, for the developer', async () => {
    const body = (await (await fetch(`${development.baseUrl}/trpc/content.testimonials`)).json()) as ErrorBody
    expect(body.error.message).toContain('testimonials')
  })

  it('keep the messages we wrote: domain errors and zod field messages', async () => {
    const staff = await createUser(database.db, { role: 'super_admin' })
    const cookie = `session=${(await createSessionToken(database.db, staff.id)).token}`
    const missing = await fetch(`${production.baseUrl}/trpc/admin.categories.delete`, {
      method: 'POST',
      headers: { cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ id: crypto.randomUUID() }),
    })
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as ErrorBody).error.message).toBe('Category not found')
    const invalid = await fetch(
      `${production.baseUrl}/trpc/catalog.featuredCourses?input=${encodeURIComponent('{"limit":"many"}')}`,
    )
    const body = (await invalid.json()) as ErrorBody
    expect(invalid.status).toBe(400)
    expect(body.error.data.zodError).toMatchObject({ fieldErrors: { limit: [expect.any(String)] } })
    expect(body.error.data.requestId).toBe(invalid.headers.get('x-request-id'))
  })

  it('tie a domain refusal about one field to that field, as zod field errors are', async () => {
    const staff = await createUser(database.db, { role: 'super_admin' })
    const cookie = `session=${(await createSessionToken(database.db, staff.id)).token}`
    const create = () =>
      fetch(`${production.baseUrl}/trpc/admin.categories.create`, {
        method: 'POST',
        headers: { cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Field Errors Test', description: '' }),
      })
    expect((await create()).status).toBe(200)
    const taken = await create()
    const body = (await taken.json()) as ErrorBody
    expect(taken.status).toBe(409)
    expect(body.error.message).toBe('A category with this name already exists')
    expect(body.error.data.zodError).toEqual({
      formErrors: [],
      fieldErrors: { name: ['A category with this name already exists'] },
    })
  })
})

describe('plain routes in production', () => {
  it('answer a storage failure with a generic message and the request id, never the S3 XML', async () => {
    const editor = await createUser(database.db, { role: 'editor' })
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'a.png')
    const response = await fetch(`${production.baseUrl}/api/admin/course-image`, {
      method: 'POST',
      headers: { cookie: `session=${(await createSessionToken(database.db, editor.id)).token}`, origin: TEST_ORIGIN },
      body: form,
    })
    const text = await response.text()
    expect(response.status).toBe(500)
    expect(text).not.toMatch(/AccessDenied|xml|bucket/i)
    const body = JSON.parse(text) as { message: string; requestId: string }
    expect(body.message).toBe(INTERNAL_ERROR_MESSAGE)
    expect(response.headers.get('x-request-id')).toBe(body.requestId)
  })

  it('send X-Request-Id on every answer, a different one each time', async () => {
    const first = await fetch(`${production.baseUrl}/livez`)
    const second = await fetch(`${production.baseUrl}/robots.txt`)
    expect(first.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'))
  })
})

// The error formatter without the server's context: tRPC formats a refusal made before the context exists (a batch
// over the limit) or when building it threw, with no context at all, and a context from createContextInner (the
// in-process callers' and the tests') has no request and no hideErrorDetails. Then process.env.NODE_ENV decides,
// and the body has no request id.
describe('an outside service failing', () => {
  it("answers 502 with our message and logs what Stripe answered under the request's id, without the key", async () => {
    const secretKey = 'sk_test_key_that_must_not_be_logged'
    const { lines, stream } = captureJsonLogs<{
      msg: string
      reqId?: string
      path?: string
      err?: { message?: string }
    }>()
    // Stripe cannot be reached (connection refused): the creator's Set up payouts click.
    const down = createStripeApi({ secretKey, apiUrl: `http://127.0.0.1:${await freePort()}` })
    const server = await startTestServer(database.db, {
      payments: { ...defaultPayments, stripe: down },
      logStream: stream,
    })
    try {
      const creator = await createCreator(database.db, { plan: 'pro' })
      const cookie = `session=${(await createSessionToken(database.db, creator.id)).token}`
      const response = await trpcPost(server.baseUrl, 'earnings.setUpPayouts', null, { cookie })
      const body = (await response.json()) as ErrorBody
      expect([response.status, body.error.message]).toEqual([502, PAYOUTS_STRIPE_FAILED])
      // Before, a 502 left only its access line: nothing said whether Stripe refused the key or could not be reached.
      await expect
        .poll(() => lines.find((line) => line.msg === 'outside service failed'))
        .toMatchObject({
          reqId: body.error.data.requestId,
          path: 'earnings.setUpPayouts',
          // Our message, then its cause's: the SDK's connection error.
          err: { message: `${PAYOUTS_STRIPE_FAILED}: An error occurred with our connection to Stripe.` },
        })
      expect(JSON.stringify(lines)).not.toContain(secretKey)
    } finally {
      await server.stop()
    }
  })
})

describe('tRPC errors formatted without a request', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  /** The app's router over tRPC's fetch adapter, as another server would serve it, with `createContext`. */
  async function fetchAdapterAnswer(procedure: string, createContext: () => Promise<Context>) {
    const response = await fetchRequestHandler({
      endpoint: '/trpc',
      req: new Request(`${TEST_ORIGIN}/trpc/${procedure}`),
      router: appRouter,
      createContext,
    })
    return { status: response.status, body: (await response.json()) as ErrorBody }
  }
  const unreachable = async (): Promise<Context> => {
    throw new Error('connect ECONNREFUSED 127.0.0.1:5499')
  }
  const withoutRequest = async (): Promise<Context> =>
    createContextInner({ db: database.db, user: null, session: null })

  it('refuse a batch over the limit before any context, with the request id in the header only', async () => {
    const paths = Array.from({ length: TRPC_MAX_BATCH_SIZE + 1 }, () => 'catalog.featuredCourses').join(',')
    const response = await fetch(`${production.baseUrl}/trpc/${paths}?batch=1`)
    expect(response.status).toBe(400)
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(await response.json()).toEqual({
      error: {
        message: 'Batch call exceeds maximum size',
        code: -32600,
        data: {
          code: 'BAD_REQUEST',
          httpStatus: 400,
          // tRPC adds the stack when the process was not started in production (this test process).
          stack: expect.stringMatching(/^TRPCError: Batch call exceeds maximum size\n/),
          zodError: null,
          requestId: null,
        },
      },
    })
  })

  it('hide the text of a context that could not be built when NODE_ENV is production', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    expect(await fetchAdapterAnswer('catalog.featuredCourses', unreachable)).toEqual({
      status: 500,
      body: {
        error: {
          message: INTERNAL_ERROR_MESSAGE,
          code: -32603,
          data: {
            code: 'INTERNAL_SERVER_ERROR',
            httpStatus: 500,
            path: 'catalog.featuredCourses',
            zodError: null,
            requestId: null,
          },
        },
      },
    })
  })

  it('show the text of a context that could not be built outside production', async () => {
    vi.stubEnv('NODE_ENV', 'development')
    expect(await fetchAdapterAnswer('catalog.featuredCourses', unreachable)).toEqual({
      status: 500,
      body: {
        error: {
          message: 'connect ECONNREFUSED 127.0.0.1:5499',
          code: -32603,
          data: {
            code: 'INTERNAL_SERVER_ERROR',
            httpStatus: 500,
            path: 'catalog.featuredCourses',
            stack: expect.stringMatching(/^Error: connect ECONNREFUSED 127\.0\.0\.1:5499\n/),
            zodError: null,
            requestId: null,
          },
        },
      },
    })
  })

  it("follow NODE_ENV for a context without a request or hideErrorDetails (createContextInner's)", async () => {
    vi.stubEnv('NODE_ENV', 'production')
    expect(await fetchAdapterAnswer('content.testimonials', withoutRequest)).toEqual({
      status: 500,
      body: {
        error: {
          message: INTERNAL_ERROR_MESSAGE,
          code: -32603,
          data: {
            code: 'INTERNAL_SERVER_ERROR',
            httpStatus: 500,
            path: 'content.testimonials',
            zodError: null,
            requestId: null,
          },
        },
      },
    })
    vi.stubEnv('NODE_ENV', 'development')
    const shown = await fetchAdapterAnswer('content.testimonials', withoutRequest)
    expect(shown.status).toBe(500)
    expect(shown.body.error.message).toBe('relation "testimonials" does not exist')
    expect(shown.body.error.data.requestId).toBeNull()
  })
})

// The tRPC handler's fast path (a GET of one query in a batch of one, answered without tRPC's fetch machinery) must
// answer exactly as tRPC's own resolveResponse does. The same call inside a batch of two always goes tRPC's whole
// way, so each single call is compared with the first half of that batch: status, the headers tRPC sets, and body.
import { describe, expect, it } from 'vitest'
import { createSession, SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { createUser } from '../../support/factories.ts'
import { serveForThisFile } from '../../support/test-server.ts'

const site = serveForThisFile()

async function get(path: string, inputs: Record<string, unknown> | null, headers: Record<string, string> = {}) {
  const query = inputs === null ? 'batch=1' : `batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`
  const response = await fetch(`${site.baseUrl}/trpc/${path}?${query}`, { headers })
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    vary: response.headers.get('vary'),
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
  }
}

/** A parsed answer without what differs per request: an error's stack (a test server shows it) and request id. */
const parse = (body: string) =>
  JSON.parse(body, (key, value) => (key === 'stack' || key === 'requestId' ? undefined : value)) as unknown[]

/** The call alone (fast path) and the same call twice in one batch (tRPC's own path), as parsed answers. */
async function bothWays(procedure: string, input: unknown, headers: Record<string, string> = {}) {
  const single = await get(procedure, input === undefined ? null : { 0: input }, headers)
  const batch = await get(`${procedure},${procedure}`, input === undefined ? null : { 0: input, 1: input }, headers)
  const [first, second] = parse(batch.body)
  expect(second).toEqual(first)
  return { single, batch, singleAnswer: parse(single.body), batchFirst: first }
}

describe('the tRPC fast path answers as tRPC does', () => {
  it.each([
    ['catalog.search', {}],
    ['catalog.search', { search: 'design', sort: 'price-asc', page: 2 }],
    ['catalog.categories', undefined],
    ['catalog.featuredCourses', { limit: 4 }],
    ['plans.list', undefined],
  ])('%s %j: same status, headers and data', async (procedure, input) => {
    const { single, batch, singleAnswer, batchFirst } = await bothWays(procedure, input)
    expect(single.status).toBe(200)
    expect(batch.status).toBe(200)
    expect(single.contentType).toBe(batch.contentType)
    expect(single.vary).toBe(batch.vary)
    expect(single.vary).toMatch(/^trpc-accept, accept\b/)
    expect(singleAnswer).toEqual([batchFirst])
    // Byte for byte: the single answer is the batch's first element, serialised the same way.
    expect(single.body).toBe(JSON.stringify([batchFirst]))
  })

  it('answers a course and an unknown course (null) alike', async () => {
    const course = await site.db
      .selectFrom('courses')
      .select('id')
      .where('status', '=', 'published')
      .executeTakeFirstOrThrow()
    for (const id of [course.id, 'no-such-course']) {
      const { single, singleAnswer, batchFirst } = await bothWays('catalog.course', { id })
      expect(single.status).toBe(200)
      expect(singleAnswer).toEqual([batchFirst])
    }
    const found = (await bothWays('catalog.course', { id: course.id })).singleAnswer as [
      { result: { data: { id: string } } },
    ]
    expect(found[0].result.data.id).toBe(course.id)
  })

  it('gives a refused call tRPC’s error shape and status (bad input, signed out)', async () => {
    const bad = await bothWays('catalog.search', { page: -3 })
    expect(bad.single.status).toBe(400)
    expect(bad.batch.status).toBe(400)
    expect(bad.singleAnswer).toEqual([bad.batchFirst])
    expect(JSON.parse(bad.single.body)[0].error.data.requestId).toMatch(/^[0-9a-f-]{36}$/)
    const anonymous = await bothWays('membership.get', undefined)
    expect(anonymous.single.status).toBe(401)
    expect(anonymous.batch.status).toBe(401)
    expect(anonymous.singleAnswer).toEqual([anonymous.batchFirst])
  })

  it('builds the signed-in context the same way (the session cookie is read)', async () => {
    const user = await createUser(site.db)
    const { token } = await createSession(site.db, user.id)
    const cookie = { cookie: `${SESSION_COOKIE}=${token}` }
    const { single, singleAnswer, batchFirst } = await bothWays('membership.get', undefined, cookie)
    expect(single.status).toBe(200)
    expect(singleAnswer).toEqual([batchFirst])
  })

  it('leaves to tRPC what it does not take: mutations, unknown procedures, malformed input', async () => {
    const mutation = await get('cart.clear', null)
    expect(mutation.status).toBe(405)
    expect(JSON.parse(mutation.body)[0].error.data.code).toBe('METHOD_NOT_SUPPORTED')
    const unknown = await get('catalog.nothing', null)
    expect(unknown.status).toBe(404)
    const response = await fetch(`${site.baseUrl}/trpc/catalog.search?batch=1&input=%7Bnot-json`)
    expect(response.status).toBe(400)
    const notBatched = await fetch(`${site.baseUrl}/trpc/catalog.categories`)
    expect(notBatched.status).toBe(200)
    expect(Object.keys(await notBatched.json())).toEqual(['result'])
  })
})

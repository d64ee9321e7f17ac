// Malformed-input fuzz over real HTTP: every tRPC procedure (read from the router, so new ones are covered) and
// every plain route (read from Fastify), as a visitor, a customer and staff, with hostile values, broken JSON,
// bad batches, bad cookies and oversized bodies. No answer may be a 5xx: bad input is the client's error.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { appRouter } from '../../../src-server/routers/_app.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createSessionToken, createUser } from '../../support/factories.ts'
import { type FullServer, startFullServer, TEST_ORIGIN } from '../../support/full-server.ts'
import { malformedInputSets } from '../../support/malformed.ts'
import { seededRandom, testSeed } from '../../support/seeded.ts'

const CONCURRENCY = 6
const HUGE_QUERY = 4_000 // a GET carries its input in the URL (Node refuses request lines past 16 kB)
const HUGE_BODY = 200_000

let database: DatabaseHandle
let server: FullServer
const userIds: Record<'customer' | 'staff', string> = { customer: '', staff: '' }
const tally = { sent: 0, serverErrors: [] as string[] }

type Role = 'visitor' | 'customer' | 'staff'
const ROLES: Role[] = ['visitor', 'customer', 'staff']

interface Procedure {
  path: string
  type: 'query' | 'mutation'
  input: Parameters<typeof malformedInputSets>[0]
}

function procedures(): Procedure[] {
  const all = appRouter._def.procedures as unknown as Record<string, { _def: { type: string; inputs: unknown[] } }>
  return Object.entries(all)
    .filter(([, procedure]) => procedure._def.type !== 'subscription')
    .map(([procPath, procedure]) => ({
      path: procPath,
      type: procedure._def.type as Procedure['type'],
      input: procedure._def.inputs[0] as Procedure['input'],
    }))
}

beforeAll(async () => {
  database = await createTestDatabase()
  userIds.customer = (await createUser(database.db)).id
  userIds.staff = (await createUser(database.db, { role: 'super_admin' })).id
  server = await startFullServer(database.db)
}, 120_000)

afterAll(async () => {
  console.info(`malformed-input fuzz: ${tally.sent} requests, ${tally.serverErrors.length} answers >= 500`)
  await server?.stop()
  await database?.close()
})

/** A session cookie for a role, renewed when an answer ends the session (log-out, password change). */
async function sessionCookie(role: Role): Promise<string> {
  if (role === 'visitor') return ''
  const { token } = await createSessionToken(database.db, userIds[role])
  return `session=${token}`
}

async function send(label: string, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  if (!headers.has('origin')) headers.set('origin', TEST_ORIGIN)
  const response = await fetch(`${server.baseUrl}${url}`, { ...init, headers, redirect: 'manual' })
  await response.arrayBuffer()
  tally.sent++
  if (response.status >= 500) tally.serverErrors.push(`${response.status} ${label.slice(0, 200)}`)
  return response
}

function serverErrorsSince(before: number): string[] {
  return tally.serverErrors.slice(before)
}

function callProcedure(procedure: Procedure, input: unknown, cookie: string, label: string) {
  const headers: Record<string, string> = cookie ? { cookie } : {}
  if (procedure.type === 'query') {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`
    return send(label, `/trpc/${procedure.path}${query}`, { headers })
  }
  return send(label, `/trpc/${procedure.path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: input === undefined ? undefined : JSON.stringify(input),
  })
}

/** Runs tasks a few at a time (the server is real; the machine is shared). */
async function inParallel(tasks: (() => Promise<void>)[]) {
  let next = 0
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!()
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
}

function describeInput(input: unknown): string {
  const text = JSON.stringify(input) ?? 'undefined'
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}

/** This database is PGlite, and PostgreSQL (the production engine) runs the same file in this run. */
const fuzzElsewhere = Boolean(process.env.TEST_DATABASE_URL) && inject('testDb').kind === 'pglite'

describe('malformed input never answers 5xx', () => {
  // Each role sends every procedure no input and its valid bases; a role whose answers are not all 401/403 gets past
  // the access check (or reads the input before it). The hostile wholes and the bases with one hostile leaf (every
  // leaf path × every hostile leaf, ~7,000 requests) are then each sent once, by one of those roles (staff when no
  // role does) that the run's seed picks: each run puts every hostile input into every field of every procedure,
  // and over runs every role that reads it sends each one. A 401 comes before the input is read, so the copies a
  // visitor (and a second role) sent before this sampling proved nothing more and took over half this file's time.
  // The matrix (~30,000 requests, 90 s on an idle machine), the bad cookies and the plain-route fuzz test input
  // handling, which does not depend on the database: each runs once per `npm test`, on PostgreSQL when
  // TEST_DATABASE_URL is set and on PGlite otherwise. Run twice beside Playwright the matrix took over 600 s on PGlite
  // (a CI failure), and the other two another 139 s there (decision 0088).
  it.skipIf(fuzzElsewhere)(
    'covers every procedure with hostile inputs as a visitor, a customer and staff',
    async () => {
      const before = tally.serverErrors.length
      const tasks = procedures().map((procedure) => async () => {
        const huge = procedure.type === 'query' ? HUGE_QUERY : HUGE_BODY
        const { bases, mutated, wholes } = malformedInputSets(procedure.input, huge)
        const cookies = {} as Record<Role, string>
        const sendAs = async (role: Role, input: unknown) => {
          const label = `${role} ${procedure.path} ${describeInput(input)}`
          const response = await callProcedure(procedure, input, cookies[role], label)
          const cleared = response.headers.getSetCookie().some((line) => /^session=;/.test(line))
          if (cleared) cookies[role] = await sessionCookie(role)
          return response
        }
        const reading: Role[] = []
        for (const role of ROLES) {
          cookies[role] = await sessionCookie(role)
          let reads = false
          for (const input of [undefined, ...bases]) {
            const { status } = await sendAs(role, input)
            if (status !== 401 && status !== 403) reads = true
          }
          if (reads) reading.push(role)
        }
        const random = seededRandom(testSeed(), `malformed-input ${procedure.path}`)
        const senders: Role[] = reading.length > 0 ? reading : ['staff']
        for (const input of [...wholes, ...mutated])
          await sendAs(senders[Math.floor(random() * senders.length)]!, input)
      })
      await inParallel(tasks)
      expect(serverErrorsSince(before)).toEqual([])
    },
    600_000,
  )

  it('refuses broken tRPC requests: bad JSON, bad batches, wrong methods, huge bodies', async () => {
    const before = tally.serverErrors.length
    const requests: [string, string, RequestInit][] = [
      ['bad JSON query', '/trpc/catalog.search?input=%7B', {}],
      ['NUL in query param', '/trpc/catalog.search?input=%00', {}],
      ['batch with array input', '/trpc/catalog.search?batch=1&input=[]', {}],
      ['batch with bad index', '/trpc/catalog.search?batch=1&input={"x":1}', {}],
      ['batch with wrong key', '/trpc/catalog.search,catalog.search?batch=1&input={"5":{}}', {}],
      ['batch of empty paths', '/trpc/,,,?batch=1', {}],
      ['batch flag not a number', '/trpc/catalog.search?batch=yes', {}],
      ['batch of 500 calls', `/trpc/${Array(500).fill('catalog.categories').join(',')}?batch=1`, {}],
      ['unknown procedure', '/trpc/nothing.here', {}],
      ['NUL in the path', '/trpc/catalog.search%00', {}],
      ['GET a mutation', '/trpc/contact.send?input={}', {}],
      ['POST a query', '/trpc/catalog.search', { method: 'POST', body: '{}' }],
      ['PUT', '/trpc/catalog.search', { method: 'PUT', body: '{}' }],
      ['DELETE', '/trpc/contact.send', { method: 'DELETE' }],
      ...(
        [
          ['application/json', 'not json'],
          ['application/json', '{"a":'],
          ['application/json', '\u0000'],
          ['application/json', '{"__proto__":{"x":1}}'],
          ['application/json', `{"0":${'['.repeat(5000)}${']'.repeat(5000)}}`],
          ['application/json', 'x'.repeat(2 * 1024 * 1024)],
          ['text/plain', 'hello'],
          ['application/x-www-form-urlencoded', 'a=b'],
          ['multipart/form-data; boundary=x', '--x\r\nbroken'],
          ['application/octet-stream', '\u0000\u0001'],
        ] as const
      ).map(
        ([type, body]) =>
          [
            `POST ${type} ${describeInput(body)}`,
            '/trpc/contact.send',
            { method: 'POST', headers: { 'content-type': type }, body },
          ] as [string, string, RequestInit],
      ),
      [
        'batched mutation with broken items',
        '/trpc/contact.send,auth.login?batch=1',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"0":null,"1":"\\u0000"}' },
      ],
    ]
    for (const role of ROLES) {
      const cookie = await sessionCookie(role)
      for (const [label, url, init] of requests) {
        await send(`${role} ${label}`, url, { ...init, headers: { ...(init.headers as object), cookie } })
      }
    }
    expect(serverErrorsSince(before)).toEqual([])
  }, 120_000)

  it.skipIf(fuzzElsewhere)(
    'treats bad session cookies as no session on every procedure',
    async () => {
      const before = tally.serverErrors.length
      const badCookies = [
        'session=%00.x',
        'session=%00',
        'session=garbage',
        'session=a.b.c',
        `session=${'x'.repeat(4000)}.${'y'.repeat(10)}`,
        'session=%E0%A4%A',
        'session="quoted.value"',
        'session=.',
        'session=x.%00',
        'oauth_flow=%7B; oauth_state=%00',
      ]
      const tasks = badCookies.map((cookie) => async () => {
        for (const procedure of procedures()) {
          await callProcedure(procedure, undefined, cookie, `cookie ${cookie.slice(0, 40)} ${procedure.path}`)
        }
      })
      await inParallel(tasks)
      expect(serverErrorsSince(before)).toEqual([])
    },
    300_000,
  )

  it.skipIf(fuzzElsewhere)(
    'answers every plain route with malformed requests below 500',
    async () => {
      const before = tally.serverErrors.length
      const routes = plainRoutes()
      expect(routes.length).toBeGreaterThan(5)
      const bodies: [string, string | undefined][] = [
        ['', undefined],
        ['application/json', 'not json'],
        ['application/json', '{}'],
        ['text/plain', '\u0000garbage'],
        ['multipart/form-data', '--x\r\nno boundary'],
        ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nbroken'],
        ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n'],
        [
          'multipart/form-data; boundary=x',
          '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot an image\r\n--x--\r\n',
        ],
        ['application/octet-stream', 'x'.repeat(6 * 1024 * 1024)],
      ]
      const queries = [
        '',
        '?a=%00',
        '?redirect=%00&mode=admin',
        `?x=${'y'.repeat(3000)}`,
        '?a=1&a=2',
        '?code=%00&state=%00',
      ]
      // Per role, route and target: every query without a body, and every body once, with a query the run's seed
      // picks (a different one for each body). Each run so sends every query and every body to every route and target;
      // the query × body pairs (a 6 MB body under six queries was most of this test's time) vary from run to run.
      const tasks = ROLES.flatMap((role) =>
        routes.map(({ method, url }) => async () => {
          let cookie = await sessionCookie(role)
          const random = seededRandom(testSeed(), `malformed-input ${role} ${method} ${url}`)
          const forBody = method === 'GET' || method === 'HEAD' ? bodies.slice(0, 1) : bodies
          for (const target of expandPath(url)) {
            const offset = Math.floor(random() * queries.length)
            const requests: [string, [string, string | undefined]][] = [
              ...queries.map((query) => [query, forBody[0]!] as [string, [string, string | undefined]]),
              ...forBody
                .slice(1)
                .map(
                  (body, i) =>
                    [queries[(offset + i) % queries.length]!, body] as [string, [string, string | undefined]],
                ),
            ]
            for (const [query, [type, body]] of requests) {
              const headers: Record<string, string> = cookie ? { cookie } : {}
              if (type) headers['content-type'] = type
              const label = `${role} ${method} ${target}${query} ${type}`
              const response = await send(label, `${target}${query}`, { method, headers, body })
              if (response.headers.getSetCookie().some((line) => /^session=;/.test(line)))
                cookie = await sessionCookie(role)
            }
          }
        }),
      )
      await inParallel(tasks)
      expect(serverErrorsSince(before)).toEqual([])
    },
    600_000,
  )
})

/** Every route Fastify knows outside /trpc, with its methods, read from printRoutes' tree (4 columns a level). */
function plainRoutes(): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = []
  const stack: string[] = []
  for (const line of server.server.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = line.match(/^(.*?)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/)
    if (!match) continue
    const depth = match[1]!.length / 4
    stack.length = depth
    const url = `${stack.join('')}${match[2]}`
    stack.push(match[2]!)
    if (!match[3] || url.startsWith('/trpc')) continue
    for (const method of match[3].split(', ')) routes.push({ method, url: url.startsWith('/') ? url : `/${url}` })
  }
  return routes
}

/** Concrete URLs for a route pattern: params and wildcards (the uploads and client files) get hostile segments. */
function expandPath(url: string): string[] {
  if (!url.includes('*') && !url.includes(':')) return [url]
  const segments = ['x', '%00', '..%2F..%2Fetc%2Fpasswd', 'a'.repeat(3000), '%E0%A4%A', 'avatars/x/%00.png']
  const targets = segments.map((segment) => url.replace(/\*|:[A-Za-z]+/, segment))
  if (url === '/*') targets.push(...segments.map((segment) => `/uploads/${segment}`))
  return targets
}

// The limiter in memory and in Redis (127.0.0.1:6379 here, or REDIS_URL), and log-in refused after N attempts.
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import {
  allowAttempt,
  createMemoryLimiter,
  createRateLimiter,
  createRedisLimiter,
  RATE_RULES,
  type RateLimiter,
  REDIS_COMMAND_TIMEOUT_MS,
} from '../../../src-server/security/rate-limit.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { creatorWithPlan, tusClient } from '../../support/creator-uploads.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { startTestServer, trpcPost } from '../../support/http.ts'
import { startSilentServer } from '../../support/silent-server.ts'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
// A short window the tests wait out, long enough that a few Redis round trips on a loaded CI machine (beside
// Playwright, at Vitest's lower priority) stay inside it: at 300 ms a peek after two hits once found the count gone.
const WINDOW_MS = 1000
const pastWindow = () => new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 100))
let database: DatabaseHandle

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database.close()
})

describe.each([
  ['memory', () => createMemoryLimiter()],
  ['redis', () => createRedisLimiter(REDIS_URL, `test:${randomBytes(4).toString('hex')}:`)],
])('%s limiter', (kind, make) => {
  let limiter: RateLimiter
  beforeAll(() => {
    limiter = make()
  })
  afterAll(async () => {
    await limiter.close()
  })

  it('counts attempts in a window and starts again when it ends', async () => {
    expect(limiter.kind).toBe(kind)
    const rule = { max: 3, windowMs: WINDOW_MS }
    const results = []
    for (let i = 0; i < 5; i++) results.push(await allowAttempt(limiter, rule, 'k1'))
    expect(results).toEqual([true, true, true, false, false])
    expect(await allowAttempt(limiter, rule, 'k2')).toBe(true) // other keys are separate
    await pastWindow()
    expect(await allowAttempt(limiter, rule, 'k1')).toBe(true)
  })

  it('peeks at a count without adding to it, and forgets it when the window ends', async () => {
    expect(await limiter.peek('p1')).toBe(0)
    await limiter.hit('p1', WINDOW_MS)
    await limiter.hit('p1', WINDOW_MS)
    expect(await limiter.peek('p1')).toBe(2)
    expect(await limiter.peek('p1')).toBe(2)
    await pastWindow()
    expect(await limiter.peek('p1')).toBe(0)
  })

  it('takes back a counted attempt, never below zero and never creating a count', async () => {
    await limiter.hit('r1', 5000)
    await limiter.hit('r1', 5000)
    await limiter.release('r1')
    expect(await limiter.peek('r1')).toBe(1)
    await limiter.release('r1')
    await limiter.release('r1')
    expect(await limiter.peek('r1')).toBe(0)
    await limiter.release('never-hit')
    expect(await limiter.peek('never-hit')).toBe(0)
    // The window keeps its end: a later hit counts from the taken-back total.
    expect((await limiter.hit('r1', 5000)).count).toBe(1)
  })

  it('refuses the 11th log-in attempt of one client and e-mail', async () => {
    const user = await createUser(database.db)
    const caller = createCaller(
      createContextInner({ db: database.db, user: null, session: null, limiter, clientIp: `ip-${kind}` }),
    )
    for (let i = 0; i < RATE_RULES.login.max; i++) {
      await expect(caller.auth.login({ email: user.email, password: 'bad-guess' })).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
      })
    }
    await expect(caller.auth.login({ email: user.email, password: user.password })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many attempts. Please try again later.',
    })
  })
})

describe('the server with a Redis limiter', () => {
  it('picks Redis when REDIS_URL is set, else memory', async () => {
    const redis = createRateLimiter(REDIS_URL)
    expect(redis.kind).toBe('redis')
    await redis.close()
    expect(createRateLimiter(undefined).kind).toBe('memory')
  })

  it('keeps its counts in Redis, answering 429 over HTTP after N attempts', async () => {
    const prefix = `test:${randomBytes(4).toString('hex')}:`
    const limiter = createRedisLimiter(REDIS_URL, prefix)
    const server = await startTestServer(database.db, { limiter })
    const redis = new Redis(REDIS_URL)
    try {
      const email = 'reset-me@example.test'
      const statuses: number[] = []
      for (let i = 0; i <= RATE_RULES.passwordReset.max; i++) {
        statuses.push((await trpcPost(server.baseUrl, 'auth.requestPasswordReset', { email })).status)
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
      const keys = await redis.keys(`${prefix}reset:*`)
      expect(keys).toHaveLength(1)
      expect(await redis.get(keys[0]!)).toBe('6')
      expect(await redis.pttl(keys[0]!)).toBeGreaterThan(0)
    } finally {
      redis.disconnect()
      await server.stop()
      await limiter.close()
    }
  })

  it('a Redis that accepts connections and never answers: log-in answers within seconds, the attempt let through', async () => {
    const silent = await startSilentServer()
    const limiter = createRedisLimiter(`redis://127.0.0.1:${silent.port}`)
    const server = await startTestServer(database.db, { limiter })
    try {
      const user = await createUser(database.db)
      const started = performance.now()
      // Before the command timeout this never answered: 20 s is far beyond the bound, and far below "never".
      const response = await trpcPost(
        server.baseUrl,
        'auth.login',
        { email: user.email, password: user.password },
        {},
        AbortSignal.timeout(20_000),
      )
      expect(response.status).toBe(200)
      expect(silent.accepted).toBeGreaterThan(0)
      // Each of the log-in's counts waits at most the command timeout (they run a few at once, in a few steps).
      expect(performance.now() - started).toBeLessThan(10 * REDIS_COMMAND_TIMEOUT_MS)
    } finally {
      await server.stop()
      await limiter.close()
      await silent.close()
    }
  }, 30_000)

  it('Redis refusing connections: the unsubscribe link, an upload, a tus upload and the API are let through', async () => {
    const limiter = createRedisLimiter('redis://127.0.0.1:1')
    const server = await startTestServer(database.db, { limiter })
    try {
      // Each answered as without a limiter; before, every one of them answered 500 "Something went wrong".
      const unsubscribe = await fetch(`${server.baseUrl}/api/mail/unsubscribe?token=${'a'.repeat(43)}`, {
        redirect: 'manual',
      })
      expect(unsubscribe.status).toBe(303)
      const avatar = await fetch(`${server.baseUrl}/api/profile/avatar`, {
        method: 'POST',
        headers: { origin: 'http://storefront.test' },
      })
      expect(avatar.status).toBe(401)
      const { cookie } = await creatorWithPlan(database.db, 'pro')
      expect((await tusClient(server.baseUrl, cookie).create(1000)).status).toBe(201)
      const owner = await createCreator(database.db, { plan: 'enterprise' })
      const { key } = await (await callerAs(database.db, owner)).apiKeys.create({
        name: 'Sync job',
        scopes: ['courses:read'],
        expiresInDays: 30,
        password: owner.password,
      })
      const api = await fetch(`${server.baseUrl}/api/v1/courses`, { headers: { authorization: `Bearer ${key}` } })
      expect(api.status).toBe(200)
      // No RateLimit headers: the count is unknown.
      expect(api.headers.get('ratelimit')).toBeNull()
    } finally {
      await server.stop()
      await limiter.close()
    }
  }, 30_000)

  it('lets attempts through when Redis cannot be reached, rather than locking everyone out', async () => {
    const dead = createRedisLimiter('redis://127.0.0.1:1')
    expect(await allowAttempt(dead, { max: 1, windowMs: 1000 }, 'x')).toBe(true)
    await dead.close()
  })
})

// Which errors mean "the database cannot be reached" (answered 503), and start-up's wait-and-retry on them.
import { TRPCError } from '@trpc/server'
import { describe, expect, it } from 'vitest'
import { isDatabaseUnavailable } from '../../src-server/kernel/db-unavailable.ts'
import { retryWhileUnavailable } from '../../src-server/kernel/db-wait.ts'

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code })

describe('isDatabaseUnavailable', () => {
  it('recognises refused and reset connections, shutdowns, class 08, pool timeouts and a closed PGlite', () => {
    const unavailable = [
      withCode('connect ECONNREFUSED 127.0.0.1:5499', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('terminating connection due to crash of another server process', '57P02'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('PGlite is closed'),
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
      new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: withCode('x', '57P01') }),
    ]
    for (const error of unavailable) expect(isDatabaseUnavailable(error), error.message).toBe(true)
  })

  it('leaves query errors, bad input and outside services alone', () => {
    const other = [
      withCode('relation "x" does not exist', '42P01'),
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('invalid byte sequence for encoding "UTF8": 0x00', '22021'),
      withCode('password authentication failed for user "x"', '28P01'),
      new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED 10.0.0.1:443', 'ECONNREFUSED') }),
      new Error('Something else'),
      null,
      'ECONNREFUSED',
    ]
    for (const error of other) expect(isDatabaseUnavailable(error)).toBe(false)
  })
})

describe('retryWhileUnavailable', () => {
  it('waits with growing delays while the database is unreachable, logging each wait, then succeeds', async () => {
    const waits: number[] = []
    const logged: object[] = []
    let attempts = 0
    const result = await retryWhileUnavailable(
      async () => {
        attempts++
        if (attempts < 5) throw withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')
        return 'migrated'
      },
      { warn: (details) => logged.push(details) },
      { startDelayMs: 100, maxDelayMs: 500, sleep: async (ms) => void waits.push(ms) },
    )
    expect(result).toBe('migrated')
    expect(waits).toEqual([100, 200, 400, 500])
    expect(logged[0]).toMatchObject({ attempt: 1, retryInMs: 100, reason: 'connect ECONNREFUSED 127.0.0.1:5432' })
  })

  it('stops at once on any other error', async () => {
    const refused = withCode('password authentication failed', '28P01')
    await expect(
      retryWhileUnavailable(
        async () => {
          throw refused
        },
        { warn: () => {} },
        { sleep: async () => {} },
      ),
    ).rejects.toBe(refused)
  })
})

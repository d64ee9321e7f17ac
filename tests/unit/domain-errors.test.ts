// A DomainError thrown by domain code leaves a procedure as the matching tRPC error, and a plain route as the
// matching HTTP status, with the domain's message in both.
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { DomainError, HTTP_STATUS_BY_KIND } from '../../src-server/errors.ts'
import { registerErrorHandler } from '../../src-server/http/errors.ts'
import { createContextInner } from '../../src-server/trpc/context.ts'
import { createCallerFactory, publicProcedure, router } from '../../src-server/trpc/init.ts'

const probe = router({
  fail: publicProcedure.query(() => {
    throw new DomainError('conflict', 'This item is already in your cart')
  }),
  crash: publicProcedure.query(() => {
    throw new Error('connect ECONNREFUSED')
  }),
})

describe('domain errors', () => {
  it('map to tRPC codes once, for every procedure', async () => {
    const caller = createCallerFactory(probe)(createContextInner({ db: {} as never, user: null, session: null }))
    await expect(caller.fail()).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This item is already in your cart',
    })
    await expect(caller.crash()).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' })
  })

  it('map to HTTP statuses on plain routes', async () => {
    const app = Fastify({ logger: false })
    registerErrorHandler(app)
    app.get('/missing', () => {
      throw new DomainError('not_found', 'Course not found')
    })
    const response = await app.inject({ method: 'GET', url: '/missing' })
    expect(response.statusCode).toBe(HTTP_STATUS_BY_KIND.not_found)
    expect(response.json()).toMatchObject({ message: 'Course not found' })
    await app.close()
  })
})

// A DomainError thrown by domain code leaves a procedure as the matching tRPC error, and a plain route as the
// matching HTTP status, with the domain's message in both.
import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { registerErrorHandler } from '../../src-server/kernel/error-mapping.ts'
import { DomainError, HTTP_STATUS_BY_KIND } from '../../src-server/kernel/errors.ts'
import { createContextInner } from '../../src-server/trpc/context.ts'
import { createCallerFactory, publicProcedure, router } from '../../src-server/trpc/init.ts'

const probe = router({
  fail: publicProcedure.query(() => {
    throw new DomainError('conflict', 'This item is already in your cart')
  }),
  taken: publicProcedure.mutation(() => {
    throw new DomainError('conflict', 'A category with this name already exists', { field: 'name' })
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

  it("reach the client as that field's error when they name a field, as zod's field errors do", async () => {
    const answer = async (path: string, method: string) => {
      const response = await fetchRequestHandler({
        endpoint: '/trpc',
        req: new Request(`http://localhost/trpc/${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: method === 'POST' ? '{}' : undefined,
        }),
        router: probe,
        createContext: () => createContextInner({ db: {} as never, user: null, session: null }),
      })
      return { status: response.status, body: (await response.json()) as { error: { data: { zodError: unknown } } } }
    }
    const taken = await answer('taken', 'POST')
    expect(taken.status).toBe(409)
    expect(taken.body.error.data.zodError).toEqual({
      formErrors: [],
      fieldErrors: { name: ['A category with this name already exists'] },
    })
    // A refusal about no field carries none.
    expect((await answer('fail', 'GET')).body.error.data.zodError).toBeNull()
  })
})

// tRPC on Fastify without the stock adapter's cost (decision 0029). The stock plugin hands Fastify the fetch
// Response that tRPC builds, and Fastify sends its body as a web stream: a chunked reply written in pieces (headers,
// chunk, terminator: a writev per request) after a round of stream promises. A finished answer, which is every
// answer of httpBatchLink, is read here and sent whole with its Content-Length, like any other route; only a real
// stream (httpBatchStreamLink's JSON lines, subscriptions' server-sent events) still goes through as a stream.
import type { AnyRouter } from '@trpc/server'
import type { FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify'
import { incomingMessageToRequest } from '@trpc/server/adapters/node-http'
import { resolveResponse } from '@trpc/server/http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/** Requests that ask for a streamed answer (tRPC's JSON-lines batch); their Response is passed on as a stream. */
function wantsStream(request: FastifyRequest): boolean {
  return request.headers['trpc-accept'] !== undefined
}

function isStream(response: Response): boolean {
  return response.headers.get('content-type')?.startsWith('text/event-stream') ?? false
}

export async function registerTrpc<TRouter extends AnyRouter>(
  app: FastifyInstance,
  prefix: string,
  trpcOptions: FastifyTRPCPluginOptions<TRouter>['trpcOptions'],
) {
  await app.register(
    async (scope) => {
      // As the stock plugin: tRPC reads the raw body itself (JSON as text, multipart untouched).
      scope.removeContentTypeParser('application/json')
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body))
      scope.removeContentTypeParser('multipart/form-data')
      scope.addContentTypeParser('multipart/form-data', {}, (_request, body, done) => done(null, body))

      scope.all('/:path', async (request: FastifyRequest<{ Params: { path: string } }>, reply: FastifyReply) => {
        const raw = request.raw as typeof request.raw & { body?: unknown }
        if ('body' in request) raw.body = request.body
        const response = await resolveResponse({
          ...trpcOptions,
          req: incomingMessageToRequest(raw, reply.raw, { maxBodySize: null }),
          path: request.params.path,
          error: null,
          createContext: async (inner) => trpcOptions.createContext?.({ ...inner, req: request, res: reply } as never),
          onError(o) {
            trpcOptions.onError?.({ ...o, req: request } as never)
          },
        } as Parameters<typeof resolveResponse<TRouter>>[0])
        if (wantsStream(request) || isStream(response)) return reply.send(response)
        reply.code(response.status)
        for (const [name, value] of response.headers) reply.header(name, value)
        return reply.send(await response.text())
      })
    },
    { prefix },
  )
}

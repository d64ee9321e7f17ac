// tRPC on Fastify without the stock adapter's cost (decision 0029). The stock plugin hands Fastify the fetch
// Response that tRPC builds, and Fastify sends its body as a web stream: a chunked reply written in pieces (headers,
// chunk, terminator: a writev per request) after a round of stream promises. A finished answer, which is every
// answer of httpBatchLink, is read here and sent whole with its Content-Length, like any other route; only a real
// stream (httpBatchStreamLink's JSON lines, subscriptions' server-sent events) still goes through as a stream.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyCompressOptions } from '@fastify/compress'
import type { AnyRouter } from '@trpc/server'
import type { FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify'
import { incomingMessageToRequest } from '@trpc/server/adapters/node-http'
import { resolveResponse } from '@trpc/server/http'
import {
  getProcedureAtPath,
  getTRPCErrorFromUnknown,
  isAsyncIterable,
  isObject,
  isPromise,
  transformTRPCResponse,
} from '@trpc/server/unstable-core-do-not-import'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { firstCallInput } from './batch-input.ts'

/**
 * A GET as resolveResponse reads it (its URL, method, `headers.get`/`has` and abort signal), without a fetch Request:
 * undici's Request and Headers, built from every incoming header, cost more than the rest of a small query's
 * handling (decision 0030). The signal aborts when the client goes away before the answer, as the stock one does.
 */
export function lightGetRequest(raw: IncomingMessage, res: ServerResponse): Request {
  const aborter = new AbortController()
  res.once('close', () => {
    if (!res.writableEnded) aborter.abort()
  })
  const header = (name: string) => {
    const value = raw.headers[name.toLowerCase()]
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
  }
  const headers = { get: header, has: (name: string) => header(name) !== null }
  // Only the path and query matter to tRPC; the host is not trusted for anything here.
  return { url: `http://localhost${raw.url ?? '/'}`, method: 'GET', headers, signal: aborter.signal } as never
}

/** Requests that ask for a streamed answer (tRPC's JSON-lines batch); their Response is passed on as a stream. */
function wantsStream(request: FastifyRequest): boolean {
  return request.headers['trpc-accept'] !== undefined
}

function isStream(response: Response): boolean {
  return response.headers.get('content-type')?.startsWith('text/event-stream') ?? false
}

type Options<TRouter extends AnyRouter> = FastifyTRPCPluginOptions<TRouter>['trpcOptions']

/**
 * Where the fast path finds the serialised answer of a call it has answered before (trpc/answer-cache.ts): the
 * body, or a place to keep it; null when the call is not one whose answers are kept.
 */
export type CachedAnswers = (
  ctx: never,
  path: string,
  input: unknown,
) => Promise<{ body: Buffer | undefined; store(body: Buffer, data: unknown): void } | null>
/**
 * The kept answer of a batch-of-one GET found from the request alone, before any context is built
 * (trpc/answer-cache.ts, keptCatalogueAnswer): undefined at once when the call cannot have one, else a promise of its
 * bytes (undefined when none are kept yet).
 */
export type KeptAnswer = (
  request: FastifyRequest,
  path: string,
  rawInput: string | undefined,
) => Promise<Buffer | undefined> | undefined
type Resolved = { status: number; headers: readonly (readonly [string, string])[]; body: string | Buffer }

/** The headers tRPC sets on a successful query's answer. */
const ANSWER_HEADERS: readonly [string, string][] = [
  ['vary', 'trpc-accept, accept'],
  ['content-type', 'application/json'],
]
/** The same for an answer sent as bytes: Fastify adds the charset to a JSON string's type, not to a Buffer's. */
const KEPT_ANSWER_HEADERS: readonly [string, string][] = [
  ['vary', 'trpc-accept, accept'],
  ['content-type', 'application/json; charset=utf-8'],
]

type Procedure = NonNullable<Awaited<ReturnType<typeof getProcedureAtPath>>>
// The queries found by path, per router: a hit costs no promise (getProcedureAtPath is async for lazy routers).
const queries = new WeakMap<AnyRouter, Map<string, Procedure>>()

function queryAtPath(router: AnyRouter, path: string): Procedure | undefined {
  return queries.get(router)?.get(path)
}

async function findQuery(router: AnyRouter, path: string): Promise<Procedure | null> {
  const procedure = await getProcedureAtPath(router, path)
  if (procedure?._def.type !== 'query') return null
  const known = queries.get(router) ?? new Map<string, Procedure>()
  queries.set(router, known)
  known.set(path, procedure)
  return procedure
}

/** A GET of one call in a batch of one, answered whole (not streamed): the only calls the fast paths answer. */
function isSingleQueryGet(request: FastifyRequest<{ Params: { path: string } }>): boolean {
  return (
    request.method === 'GET' &&
    (request.query as { batch?: string }).batch === '1' &&
    /^[\w.]+$/.test(request.params.path) &&
    !wantsStream(request) &&
    !request.headers.accept?.includes('application/jsonl')
  )
}

/**
 * The hot path (decision 0030), for a GET of one query in a batch of one (isSingleQueryGet), which is what the client's httpBatchLink sends
 * for a page's single call, answered without tRPC's fetch machinery (Request, Headers, URL, AbortControllers,
 * Response and reading its body back): the procedure is called as resolveResponse calls it and the answer is the
 * same bytes, status and headers (tests/integration/http/trpc-fast-path.test.ts compares them). Anything else gives null
 * and goes the whole way; so does a failed call, with its error, so errors keep tRPC's exact shape, status and hooks.
 */
async function answerSingleQuery<TRouter extends AnyRouter>(
  request: FastifyRequest<{ Params: { path: string } }>,
  reply: FastifyReply,
  options: Options<TRouter>,
  cachedAnswers?: CachedAnswers,
): Promise<Resolved | { error: unknown } | null> {
  const path = request.params.path
  const procedure = queryAtPath(options.router, path) ?? (await findQuery(options.router, path))
  if (!procedure) return null
  const call = firstCallInput((request.query as { input?: string }).input)
  if (!call) return null
  const config = options.router._def._config
  const input = call.input === undefined ? undefined : config.transformer.input.deserialize(call.input)
  const info = { isBatchCall: true, accept: null, type: 'query', calls: [], connectionParams: null, url: null }
  try {
    const ctx = await options.createContext?.({ req: request, res: reply, info } as never)
    const slot = cachedAnswers ? await cachedAnswers(ctx as never, path, input) : null
    if (slot?.body !== undefined) return { status: 200, headers: KEPT_ANSWER_HEADERS, body: slot.body }
    const data = await procedure({
      path,
      getRawInput: async () => input,
      ctx,
      type: 'query',
      signal: undefined,
      batchIndex: 0,
    })
    if (isObject(data) && Object.values(data).some((value) => isPromise(value) || isAsyncIterable(value))) return null
    const json = [{ result: { data } }]
    const headers: [string, string][] = [...ANSWER_HEADERS]
    const meta = options.responseMeta?.({
      ctx,
      info,
      paths: [path],
      data: json,
      errors: [],
      eagerGeneration: false,
      type: 'query',
    } as never)
    for (const [name, value] of Object.entries(meta?.headers ?? {})) {
      if (typeof value === 'string') headers.push([name, value])
    }
    const status = meta?.status ?? 200
    const body = JSON.stringify(transformTRPCResponse(config, json))
    // Only a plain success is kept: what a hit sends is then exactly this answer (its UTF-8 bytes).
    if (slot && status === 200 && headers.length === ANSWER_HEADERS.length) {
      const bytes = Buffer.from(body)
      slot.store(bytes, data)
      return { status, headers: KEPT_ANSWER_HEADERS, body: bytes }
    }
    return { status, headers, body }
  } catch (cause) {
    return { error: getTRPCErrorFromUnknown(cause) }
  }
}

export async function registerTrpc<TRouter extends AnyRouter>(
  app: FastifyInstance,
  prefix: string,
  trpcOptions: Options<TRouter>,
  cachedAnswers?: CachedAnswers,
  /** @fastify/compress's options for the GET route (the kept answers' compression: trpc/kept-compression.ts). */
  getCompression?: FastifyCompressOptions,
  keptAnswer?: KeptAnswer,
) {
  await app.register(
    async (scope) => {
      // As the stock plugin: tRPC reads the raw body itself (JSON as text, multipart untouched).
      scope.removeContentTypeParser('application/json')
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body))
      scope.removeContentTypeParser('multipart/form-data')
      scope.addContentTypeParser('multipart/form-data', {}, (_request, body, done) => done(null, body))

      const handler = async (request: FastifyRequest<{ Params: { path: string } }>, reply: FastifyReply) => {
        const single = isSingleQueryGet(request)
        const kept = single
          ? keptAnswer?.(request, request.params.path, (request.query as { input?: string }).input)
          : undefined
        const keptBody = kept && (await kept)
        if (keptBody) {
          for (const [name, value] of KEPT_ANSWER_HEADERS) reply.header(name, value)
          return reply.send(keptBody)
        }
        const fast = single ? await answerSingleQuery(request, reply, trpcOptions, cachedAnswers) : null
        if (fast && 'body' in fast) {
          reply.code(fast.status)
          for (const [name, value] of fast.headers) reply.header(name, value)
          return reply.send(fast.body)
        }
        const raw = request.raw as typeof request.raw & { body?: unknown }
        if ('body' in request) raw.body = request.body
        const response = await resolveResponse({
          ...trpcOptions,
          req:
            request.method === 'GET'
              ? lightGetRequest(raw, reply.raw)
              : incomingMessageToRequest(raw, reply.raw, { maxBodySize: null }),
          path: request.params.path,
          error: fast?.error ?? null,
          createContext: async (inner) => trpcOptions.createContext?.({ ...inner, req: request, res: reply } as never),
          onError(o) {
            trpcOptions.onError?.({ ...o, req: request } as never)
          },
        } as Parameters<typeof resolveResponse<TRouter>>[0])
        if (wantsStream(request) || isStream(response)) return reply.send(response)
        reply.code(response.status)
        for (const [name, value] of response.headers) reply.header(name, value)
        return reply.send(await response.text())
      }
      // Every method as `all` registers them, but a GET has no body: no request-decompression hook on its way
      // (issue 37). The others first, so HEAD keeps this handler rather than one derived from the GET route.
      scope.route({ method: scope.supportedMethods.filter((method) => method !== 'GET'), url: '/:path', handler })
      scope.get('/:path', { decompress: false, ...(getCompression && { compress: getCompression }) }, handler)
    },
    { prefix },
  )
}

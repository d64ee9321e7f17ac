// Pages are answered by the not-found handler (the client router's catch-all), which @fastify/compress does not
// reach: it hooks routes, and this handler is none. So the HTML is compressed here, with gzip when the browser
// accepts it (a server-rendered page is ~110 kB of HTML and dehydrated data, ~20 kB gzipped).
import { pipeline, type Readable } from 'node:stream'
import { createGzip, constants as zlib } from 'node:zlib'
import type { FastifyReply, FastifyRequest } from 'fastify'

/** Accept-Encoding names gzip (or *) without q=0. */
export function acceptsGzip(request: FastifyRequest): boolean {
  const accepted = request.headers['accept-encoding']
  if (typeof accepted !== 'string') return false
  return accepted.split(',').some((entry) => {
    const [name, ...params] = entry.split(';').map((part) => part.trim().toLowerCase())
    const q = params.find((param) => param.startsWith('q='))
    return (name === 'gzip' || name === '*') && (q === undefined || Number(q.slice(2)) > 0)
  })
}

/** The page's stream, gzipped (flushed as it streams) when the browser accepts it. */
export function compressedPage(request: FastifyRequest, reply: FastifyReply, body: Readable): Readable {
  reply.header('vary', 'accept-encoding')
  if (!acceptsGzip(request)) return body
  reply.header('content-encoding', 'gzip')
  return pipeline(body, createGzip({ flush: zlib.Z_SYNC_FLUSH }), (error) => {
    if (error) request.log.warn({ err: error }, 'compressed page stream ended early')
  })
}

// Serves the built client: hashed assets cached for a year, index.html never cached, SPA fallback for routes.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

const API_PREFIXES = ['/trpc', '/api', '/assets', '/auth/google', '/auth/facebook', '/uploads']

/** A request the SPA should answer: a GET for a path with no file extension outside the API. */
export function isClientRoute(method: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false
  const pathname = url.split('?')[0] ?? '/'
  if (API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))) return false
  return path.extname(pathname) === ''
}

export async function registerClient(app: FastifyInstance, clientDir: string): Promise<boolean> {
  const root = path.resolve(clientDir)
  const indexFile = path.join(root, 'index.html')
  if (!existsSync(indexFile)) {
    app.log.warn({ clientDir: root }, 'No built client found; run `npm run build` to serve the web app')
    registerNotFound(app, null)
    return false
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    setHeaders(reply, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`)
      reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
    },
  })
  registerNotFound(app, readFileSync(indexFile, 'utf8'))
  return true
}

function registerNotFound(app: FastifyInstance, indexHtml: string | null) {
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    if (indexHtml && isClientRoute(request.method, request.url)) {
      // The client router renders every page, including its own not-found page.
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml)
    }
    return reply.code(404).send({ error: 'Not Found', message: `No route for ${request.method} ${request.url}` })
  })
}

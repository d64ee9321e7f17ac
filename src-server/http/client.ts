// Serves the built client: hashed assets cached for a year, index.html never cached, SPA fallback for routes
// with the page's real status (404 for an unknown page or id, page-status.ts).
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { NativeFormResult } from '../../src-shared/native-form.ts'
import type { PageStatus } from '../flows/page-status.ts'
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../kernel/db-unavailable.ts'
import { acceptsGzip } from './compress-page.ts'
import {
  inlineStylesheets,
  isServerRendered,
  loadSsrEntry,
  type PageTemplate,
  pageScripts,
  routeChunkPreloads,
  sendRenderedPage,
  splitTemplate,
  type TrpcClientFor,
} from './ssr.ts'

/** The status a page request answers with (page-status.ts's statusForPath over the app's database). */
export type PageStatusOf = (pathname: string) => Promise<PageStatus>

const API_PREFIXES = ['/trpc', '/api', '/assets', '/auth/google', '/auth/facebook', '/uploads']

/** A request the SPA should answer: a GET for a path with no file extension outside the API. */
export function isClientRoute(method: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false
  const pathname = url.split('?')[0] ?? '/'
  if (API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))) return false
  return path.extname(pathname) === ''
}

/**
 * Renders the page a form was posted from (the request's own address) with the form's result and sends it; false when
 * nothing was sent (no server renderer built, or the page redirected), so the caller answers another way.
 */
export type RenderPostedPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  formResult: NativeFormResult,
) => Promise<boolean>

/** Serves the client; resolves to the renderer of posted pages (null when pages are not rendered on the server). */
export async function registerClient(
  app: FastifyInstance,
  clientDir: string,
  statusOf: PageStatusOf = async () => 200,
  /** In-process tRPC clients for page requests: given, public pages are server-rendered (when the entry was built). */
  trpcClientFor?: TrpcClientFor,
): Promise<RenderPostedPage | null> {
  const root = path.resolve(clientDir)
  const indexFile = path.join(root, 'index.html')
  if (!existsSync(indexFile)) {
    app.log.warn({ clientDir: root }, 'No built client found; run `npm run build` to serve the web app')
    registerNotFound(app, null, statusOf)
    return null
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // The build writes each script and stylesheet beside itself as .br and .gz (vite.config.ts precompressAssets):
    // sent as they are, at brotli's highest level, instead of compressed on every request.
    preCompressed: true,
    setHeaders(reply, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`)
      // The service worker is checked for a new version at each visit of a page it controls.
      const worker = filePath.endsWith(`${path.sep}sw.js`)
      reply.header(
        'Cache-Control',
        hashed ? 'public, max-age=31536000, immutable' : worker ? 'no-cache' : 'public, max-age=3600',
      )
    },
  })
  registerSavedLessonsPage(app, root)
  const indexHtml = readFileSync(indexFile, 'utf8')
  const entry = trpcClientFor ? await loadSsrEntry(root) : null
  const { html, stylesheet } = inlineStylesheets(indexHtml, root)
  const split = splitTemplate(pageScripts(html))
  const template = split && { ...split, stylesheet }
  const ssr =
    entry && template && trpcClientFor
      ? { entry, template, trpcClientFor, routeChunks: routeChunkPreloads(root) }
      : null
  if (trpcClientFor && !ssr) app.log.warn({ clientDir: root }, 'No server entry built; pages render in the browser')
  registerNotFound(app, indexHtml, statusOf, ssr)
  if (!ssr) return null
  return (request, reply, status, formResult) =>
    sendRenderedPage(ssr.entry, ssr.template, request, reply, status, ssr.trpcClientFor, ssr.routeChunks, formResult)
}

/**
 * The saved-lessons page (issue 34): a static page (public/saved.html) that the service worker keeps, so it opens and
 * plays saved lessons without a connection and without the app's bundle.
 */
function registerSavedLessonsPage(app: FastifyInstance, root: string) {
  const file = path.join(root, 'saved.html')
  if (!existsSync(file)) return
  const html = readFileSync(file)
  app.get('/saved', (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html),
  )
}

type Ssr = {
  entry: NonNullable<Awaited<ReturnType<typeof loadSsrEntry>>>
  template: PageTemplate
  trpcClientFor: TrpcClientFor
  routeChunks: Map<string, string[]>
} | null

function registerNotFound(app: FastifyInstance, indexHtml: string | null, statusOf: PageStatusOf, ssr: Ssr = null) {
  // The shell (its CSS inlined) is sent often: gzipped once.
  const shellGzipped = indexHtml ? gzipSync(indexHtml) : null
  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    if (indexHtml && isClientRoute(request.method, request.url)) {
      // The client router renders every page, including its own not-found page; the status tells crawlers.
      let status: number
      try {
        status = await statusOf(request.url.split('?')[0] ?? '/')
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error
        // The shell still loads and shows the outage; the status says to come back.
        request.log.warn({ err: error }, 'page status: database unavailable')
        status = 503
        reply.header('retry-after', String(RETRY_AFTER_SECONDS))
      }
      // A page that exists (or the not-found page) is rendered on the server; during an outage the shell is sent.
      const pathname = request.url.split('?')[0] ?? '/'
      if (ssr && status !== 503 && request.method === 'GET' && isServerRendered(pathname)) {
        if (await sendRenderedPage(ssr.entry, ssr.template, request, reply, status, ssr.trpcClientFor, ssr.routeChunks))
          return reply
      }
      reply
        .code(status)
        .header('Cache-Control', 'no-cache')
        .type('text/html; charset=utf-8')
        .header('vary', 'accept-encoding')
      if (shellGzipped && acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(shellGzipped)
      return reply.send(indexHtml)
    }
    return reply.code(404).send({ error: 'Not Found', message: `No route for ${request.method} ${request.url}` })
  })
}

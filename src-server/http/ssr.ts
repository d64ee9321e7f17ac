// Server rendering of the public pages (decision 0028). The client build's server entry (dist/ssr/entry-server.js,
// built from src-client/entry-server.tsx) renders the matched route with its loaders' data; this module gives it a
// tRPC client that calls the procedures in-process with the visitor's own context (cookies, session), a CSP nonce
// for the inline scripts that carry the dehydrated state, and streams the result inside the built index.html.
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { NativeFormResult } from '../../src-shared/native-form.ts'
import { routeOfPageChunk } from '../../src-shared/page-chunks.ts'
import { WHOLE_STYLESHEET_META } from '../../src-shared/page-styles.ts'
import { RETRY_AFTER_SECONDS } from '../kernel/db-unavailable.ts'
import { compressedPage } from './compress-page.ts'
import { HOLD_EARLY_CLICKS_SCRIPT } from './early-clicks.ts'
import { type PageStylesheet, pageStylesheet } from './page-styles.ts'

/**
 * A tRPC client for one page request, calling the procedures in-process with that request's context (the
 * composition root builds it: http/ stays below the routers). Opaque here; the server entry knows its type.
 */
export type TrpcClientFor = (request: FastifyRequest, reply: FastifyReply) => object

interface SsrEntry {
  render(input: {
    url: string
    headers: Headers
    trpcClient: object
    nonce: string
    signal: AbortSignal
    formResult?: NativeFormResult
  }): Promise<Response>
}

/**
 * Pages left to the client: signed-in areas (account, admin, documents), the OAuth callback and the payment pages
 * (they act on the visitor's order on arrival). Everything else a visitor can open is rendered here, the player
 * included: its loaders run with the learner's own session, so the lesson arrives with the page instead of a round
 * trip after the scripts (on a phone's "Fast 3G", 0.6 s; issue 27, `npm run bench:hydration`).
 */
const CLIENT_ONLY = [
  '/admin',
  '/account',
  '/documents',
  '/auth',
  '/payment',
  '/payment-success',
  '/studio',
  // Invitations and a school member's page (signed in; a refused link shows the server's own words).
  '/course-invite',
  '/school-invite',
  '/enrolment-invite',
  '/member',
]

/** Pages under those prefixes rendered here all the same: the staff log-in form works before its JavaScript too. */
const RENDERED_ANYWAY = ['/admin/login']

export function isServerRendered(pathname: string): boolean {
  if (RENDERED_ANYWAY.includes(pathname)) return true
  return !CLIENT_ONLY.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
}

/** The server entry next to the built client (dist/ssr beside dist/client), or null when it was not built. */
export async function loadSsrEntry(clientDir: string): Promise<SsrEntry | null> {
  const file = path.resolve(clientDir, '..', 'ssr', 'entry-server.js')
  if (!existsSync(file)) return null
  return (await import(pathToFileURL(file).href)) as SsrEntry
}

/** index.html in three parts: up to </head>, from there to the opening of #root, and the rest. */
export interface PageTemplate {
  head: string
  body: string
  tail: string
  /** The stylesheet whose rules fill STYLES_SLOT, page by page (inlineStylesheets). */
  stylesheet?: PageStylesheet | null
}

const ROOT = '<div id="root"></div>'

export function splitTemplate(indexHtml: string): PageTemplate | null {
  const root = indexHtml.indexOf(ROOT)
  const headClose = indexHtml.indexOf('</head>')
  if (root < 0 || headClose < 0 || headClose > root) return null
  const open = root + '<div id="root">'.length
  return { head: indexHtml.slice(0, headClose), body: indexHtml.slice(headClose, open), tail: indexHtml.slice(open) }
}

/** Stylesheets up to this size are inlined in rendered pages; bigger ones stay links. */
const INLINE_CSS_MAX_BYTES = 64 * 1024

/** Where a rendered page's styles go (pageStyles), in place of the built stylesheet's link. */
export const STYLES_SLOT = '<!--%SSR_STYLES%-->'

/**
 * The built stylesheet (Panda's atomic CSS) in the head of rendered pages: the first paint then waits for no request
 * but the page's own. Its link becomes STYLES_SLOT, filled per page with the rules the page uses (page-styles.ts).
 * A stylesheet too big to inline, or with `</` inside, stays a link; a second one is inlined whole.
 */
export function inlineStylesheets(
  indexHtml: string,
  clientDir: string,
): { html: string; stylesheet: PageStylesheet | null } {
  let stylesheet: PageStylesheet | null = null
  const html = indexHtml.replace(
    /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g,
    (link, file: string) => {
      const full = path.join(clientDir, file)
      if (!existsSync(full) || statSync(full).size > INLINE_CSS_MAX_BYTES) return link
      const css = readFileSync(full, 'utf8').trimEnd()
      if (css.includes('</')) return link
      if (stylesheet) return `<style>${css}</style>`
      stylesheet = pageStylesheet(css, `/${file}`)
      return STYLES_SLOT
    },
  )
  return { html, stylesheet }
}

/**
 * What fills STYLES_SLOT: the rules the page's markup uses and the whole stylesheet's address, which the client
 * fetches once its scripts have arrived (src-client/lib/page-styles.ts); the whole stylesheet when the markup is not
 * known (the page's stream had not ended when its head was sent).
 */
export function pageStyles(stylesheet: PageStylesheet, markup: string | null): string {
  if (markup === null) return `<style>${stylesheet.whole}</style>`
  return `<style>${stylesheet.rulesFor(markup)}</style><meta name="${WHOLE_STYLESHEET_META}" content="${stylesheet.href}">`
}

/** Where a rendered page's nonce goes in its inline scripts (the early-click guard; see pageScripts). */
export const NONCE_SLOT = '%SSR_NONCE%'
/** Where the head lists the module preloads of the page's own route chunks (routeChunkPreloads), after the entry's. */
export const ROUTE_CHUNKS_SLOT = '<!--%SSR_ROUTE_CHUNKS%-->'

/** The response header through which the server entry names the rendered page's matched routes (their ids). */
export const ROUTE_IDS_HEADER = 'x-ssr-route-ids'

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/
const MODULE_PRELOADS = /(?:\s*<link rel="modulepreload" crossorigin (?:fetchpriority="low" )?href="[^"]+">)+/

/**
 * A rendered page's head asks for all of its JavaScript at once: module preloads of the entry, of its imports (Vite's
 * own preloads) and of the page's own route chunks (ROUTE_CHUNKS_SLOT, filled per page), so hydration does not wait
 * for the entry to run before the route's code is requested. The entry itself is started by a small nonce'd script
 * once the document is parsed, as a module script in the head would be, except that DOMContentLoaded does not wait
 * for it: the page is complete, and its native forms work, before any script has arrived. Before them, under the same
 * nonce, the early-click guard (http/early-clicks.ts), so a press is held from the first paint on.
 *
 * The scripts used to be asked for only after the first frame (decision 0030), so that the HTML and the LCP image had
 * a phone's bandwidth to themselves. On a real link they have it anyway: a request's bytes come a round trip after it
 * is sent, and by then the page (~20 kB) has arrived; waiting for the frame only started the round trip later (on
 * DevTools "Fast 3G", 0.3–0.4 s later; issue 27, `npm run bench:hydration`). The client-rendered shell is unchanged.
 */
export function pageScripts(indexHtml: string): string {
  const entry = ENTRY_SCRIPT.exec(indexHtml)?.[1]
  if (!entry || !indexHtml.includes('</head>')) return indexHtml
  const guard = `<script nonce="${NONCE_SLOT}">${HOLD_EARLY_CLICKS_SCRIPT}</script>`
  const preloadEntry = `<link rel="modulepreload" crossorigin fetchpriority="low" href="${entry}">`
  const start = [
    "(function(){function go(){var s=document.createElement('script');s.type='module';s.crossOrigin='';",
    `s.src=${JSON.stringify(entry)};document.head.appendChild(s)}`,
    "if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',go);else go()})()",
  ].join('')
  const withPreloads = indexHtml
    .replace(ENTRY_SCRIPT, () => `${guard}\n    ${preloadEntry}`)
    .replace(MODULE_PRELOADS, (links) =>
      links.replaceAll(' crossorigin href=', ' crossorigin fetchpriority="low" href='),
    )
  // All of it at low priority: the page is whole without it, so its LCP image and icon take a connection first (over
  // HTTP/1.1's six; at high priority behind seven scripts, the course page's cover image came 0.6 s later), and
  // Lighthouse does not count it as render-blocking (it did, with FCP 2 s instead of 0.9). The route's chunks queue
  // behind the entry's, which the entry cannot run without; the framework chunk, the largest, arrives last all the same.
  const withRouteChunks = MODULE_PRELOADS.test(withPreloads)
    ? withPreloads.replace(MODULE_PRELOADS, (links) => links + ROUTE_CHUNKS_SLOT)
    : withPreloads.replace(preloadEntry, () => preloadEntry + ROUTE_CHUNKS_SLOT)
  return withRouteChunks.replace('</head>', () => `<script nonce="${NONCE_SLOT}">${start}</script>\n  </head>`)
}

/** A route's id as TanStack Router's file routes name it, from its file under routes/ (`courses/index` → `/courses/`). */
export function routeIdOfFile(file: string): string {
  const segments = file.split(/[/.]/)
  if (segments.at(-1) === 'index') segments[segments.length - 1] = ''
  return `/${segments.join('/')}`
}

/**
 * The JavaScript each route's component needs beyond the entry's, from Vite's manifest
 * (dist/client/.vite/manifest.json): route id → chunk URLs (the split component's chunk and its static imports). A
 * rendered page asks for its routes' chunks with the entry's instead of after the entry has run (one round trip
 * less on a phone). Empty when the build has no manifest.
 */
export function routeChunkPreloads(clientDir: string): Map<string, string[]> {
  const file = path.join(clientDir, '.vite', 'manifest.json')
  const byRoute = new Map<string, string[]>()
  if (!existsSync(file)) return byRoute
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<
    string,
    { file: string; name?: string; isEntry?: boolean; imports?: string[] }
  >
  const entryChunks = new Set<string>()
  const collect = (key: string, into: Set<string>) => {
    const chunk = manifest[key]
    if (!chunk || into.has(chunk.file)) return
    into.add(chunk.file)
    for (const imported of chunk.imports ?? []) collect(imported, into)
  }
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) collect(key, entryChunks)
  for (const key of Object.keys(manifest)) {
    // A first page's component is in a chunk named after its route (vite.config.ts pageGroup), the others are keyed
    // by their module.
    const route =
      routeOfPageChunk(manifest[key]?.name ?? '') ?? /^routes\/(.+)\.tsx\?tsr-split=component$/.exec(key)?.[1]
    if (!route) continue
    const chunks = new Set<string>()
    collect(key, chunks)
    const own = [...chunks].filter((chunk) => !entryChunks.has(chunk) && chunk.endsWith('.js'))
    if (own.length)
      byRoute.set(
        routeIdOfFile(route),
        own.map((chunk) => `/${chunk}`),
      )
  }
  return byRoute
}

/**
 * React writes the page's title, meta and preload links (HeadContent's, hoisted) at the start of the stream when it
 * renders into a container rather than a whole document; they belong in the head, where the client looks for them.
 */
const HOISTED = /^(?:<(?:link|meta)\b[^>]*>|<title>[^<]*<\/title>)+/

export function liftHeadTags(template: PageTemplate, firstChunk: string): { before: string; rest: string } {
  const hoisted = HOISTED.exec(firstChunk)?.[0] ?? ''
  // The page's own title replaces the shell's generic one.
  const head = hoisted.includes('<title>') ? template.head.replace(/<title>[^<]*<\/title>\s*/, '') : template.head
  return { before: head + hoisted + template.body, rest: firstChunk.slice(hoisted.length) }
}

/** The page's Content-Security-Policy with the nonce allowed for scripts (styles keep their policy). */
export function withScriptNonce(csp: string, nonce: string): string {
  return csp.replace(/(^|;)\s*script-src\s/, `$1script-src 'nonce-${nonce}' `)
}

const BODY_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding'])

/**
 * How long the rest of a page's stream may take, after its first chunk, before the head is sent without waiting for
 * it (and so with the whole stylesheet). A page whose loaders have run renders in a few milliseconds.
 */
const PAGE_END_WAIT_MS = 250

interface PageStart {
  /** The markup read so far: the whole page unless `pending` is set. */
  text: string
  /** The read still under way when the wait ran out; null when the stream has ended. */
  pending: Promise<ReadableStreamReadResult<Uint8Array>> | null
}

/** The page's stream read to its end, or for PAGE_END_WAIT_MS after its first chunk. */
async function readPageStart(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  decoder: TextDecoder,
): Promise<PageStart> {
  let text = ''
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), PAGE_END_WAIT_MS).unref()
  })
  try {
    for (let first = true; ; first = false) {
      const read = reader.read()
      // The first chunk is awaited whatever it takes: it carries the page's title and meta (liftHeadTags).
      const result = first ? await read : await Promise.race([read, expired])
      if (result === 'expired') {
        // Awaited by the page's stream later; a failure is logged there, not thrown here unheard.
        read.catch(() => {})
        return { text, pending: read }
      }
      if (result.done) return { text: text + decoder.decode(), pending: null }
      text += decoder.decode(result.value, { stream: true })
    }
  } finally {
    clearTimeout(timer)
  }
}

/** A route's redirect to the requested page with another search (a GET's only), as a path and search; else null. */
function sameAddressOtherSearch(request: FastifyRequest, response: Response): string | null {
  const location = response.headers.get('location')
  if (request.method !== 'GET' || !location) return null
  const requested = new URL(request.url, `${request.protocol}://${request.host || 'localhost'}`)
  const target = new URL(location, requested)
  if (target.origin !== requested.origin || target.pathname !== requested.pathname) return null
  if (target.search === requested.search) return null
  return `${target.pathname}${target.search}`
}

/** Pages whose render met a database outage in a procedure (the in-process tRPC client notes it: server.ts). */
const renderOutages = new WeakSet<FastifyRequest>()

/** Notes that a procedure this page's render called found the database unavailable. */
export function noteRenderOutage(request: FastifyRequest): void {
  renderOutages.add(request)
}

/**
 * Renders the page into the template and sends it (streamed). Resolves false when it sent nothing (the caller sends
 * the client-only shell): the route redirected, or rendering failed before the first byte.
 */
export async function sendRenderedPage(
  entry: SsrEntry,
  template: PageTemplate,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  trpcClientFor: TrpcClientFor,
  routeChunks: Map<string, string[]> = new Map(),
  /** The answer to a form the browser posted itself (a POST renders the page it was posted from, with it). */
  formResult?: NativeFormResult,
): Promise<boolean> {
  const nonce = randomBytes(16).toString('base64')
  const abort = new AbortController()
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort(new Error('client went away'))
  })
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    // A posted form's page is rendered as a GET of the same address: its body's headers stay behind.
    if (typeof value === 'string' && !BODY_HEADERS.has(name)) headers.set(name, value)
  }
  const url = `${request.protocol}://${request.host || 'localhost'}${request.url}`
  let response: Response
  try {
    response = await entry.render({
      url,
      headers,
      trpcClient: trpcClientFor(request, reply),
      nonce,
      signal: abort.signal,
      formResult,
    })
  } catch (error) {
    request.log.error({ err: error }, 'server rendering failed; sending the client-rendered page')
    return false
  }
  if (!response.body || (response.status >= 300 && response.status < 400)) {
    await response.body?.cancel()
    const canonical = sameAddressOtherSearch(request, response)
    if (!canonical) return false
    // Only the search changed (a link's "?category=Marketing" written as the page reads it, "marketing"): the
    // browser is sent there, and the page it then asks for is rendered, as a crawler or a visitor without
    // JavaScript needs. Any other redirect (a page that needs signing in) stays the client's.
    reply.redirect(canonical, 301)
    return true
  }
  const csp = reply.getHeader('content-security-policy')
  if (typeof csp === 'string') reply.header('content-security-policy', withScriptNonce(csp, nonce))
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let start: PageStart
  try {
    start = await readPageStart(reader, decoder)
  } catch (error) {
    request.log.error({ err: error }, 'server rendering failed; sending the client-rendered page')
    return false
  }
  const lifted = liftHeadTags(template, start.text)
  const chunks = new Set(
    (response.headers.get(ROUTE_IDS_HEADER) ?? '').split(' ').flatMap((id) => routeChunks.get(id) ?? []),
  )
  const before = lifted.before
    .replaceAll(NONCE_SLOT, nonce)
    .replace(
      ROUTE_CHUNKS_SLOT,
      [...chunks].map((chunk) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="${chunk}">`).join(''),
    )
    .replace(STYLES_SLOT, () =>
      template.stylesheet ? pageStyles(template.stylesheet, start.pending ? null : start.text) : '',
    )
  const rest = lifted.rest
  async function* page() {
    yield before + rest
    for (let read = start.pending; read; read = reader.read()) {
      const { done, value } = await read
      if (done) break
      yield decoder.decode(value, { stream: true })
    }
    yield decoder.decode() + template.tail
  }
  const body = Readable.from(page(), { objectMode: false })
  body.on('error', (error) => request.log.error({ err: error }, 'server rendering stream failed'))
  // The page carries the visitor's own header (session, cart count): never stored by shared caches.
  // page-status.ts decides, unless the router itself found nothing or failed (its not-found or error page); a
  // failure that came from a database outage is the outage's 503, with when to come back, as /trpc answers it.
  let sent = status === 200 && response.status >= 400 ? response.status : status
  if (sent >= 500 && renderOutages.has(request)) {
    sent = 503
    reply.header('retry-after', String(RETRY_AFTER_SECONDS))
  }
  reply
    .code(sent)
    .header('Cache-Control', 'private, no-cache')
    .type('text/html; charset=utf-8')
    .send(compressedPage(request, reply, body))
  return true
}

import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, gzip, constants as zlib } from 'node:zlib'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { staticCssCalls } from './scripts/vite/static-css-calls.ts'
import { pageChunkName } from './src-shared/page-chunks.ts'

const serverPort = Number(process.env.PORT ?? 3000)
const FRAMEWORK =
  /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store|@tanstack|@trpc)[\\/]|styled-system[\\/]/

const MAIN = path.resolve(import.meta.dirname, 'src-client', 'main.tsx')
const HOME = path.resolve(import.meta.dirname, 'src-client', 'routes', 'index.tsx')
/** Ark UI and the zag machines under it: what a page's accordion or dialog needs, beyond the app's own code. */
const ARK = /node_modules[\\/](@ark-ui|@zag-js|@floating-ui)[\\/]/
/** zod stays out of every page's first load (tests/e2e/initial-js.spec.ts); forms import it when they need it. */
const ZOD = /node_modules[\\/]zod[\\/]/
/**
 * Route components a visit can start on (the server-rendered pages and the player): not the staff area, the account
 * pages, the OAuth callback or the payment pages, which are opened from a page already running, nor the creator
 * studio. The studio's pages share big modules (charts, uploaders, editors): counted as first pages, those went to the
 * `shared` chunk every storefront page loads (144 kB gzipped; the catalogue hydrated in 3.2 s on a slow phone instead of
 * 2.6 s, `npm run bench:hydration`).
 */
const FIRST_LOAD_ROUTE =
  /src-client[\\/]routes[\\/](?!admin[\\/]|_auth[\\/]|auth[\\/]|payment|studio[\\/])[^?]+\?tsr-split=component$/

type ModuleGraph = {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null
}

/** The modules `from` imports statically, itself included (what must arrive before it can run). */
function staticGraph(ctx: ModuleGraph, from: string): Set<string> {
  const seen = new Set<string>()
  const queue = [from]
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id)) continue
    seen.add(id)
    queue.push(...(ctx.getModuleInfo(id)?.importedIds ?? []))
  }
  return seen
}

interface ChunkPlan {
  /** The app's modules main.tsx imports statically (every page runs them). */
  entry: Set<string>
  /** How many first-load routes' components import each module statically. */
  firstRoutes: Map<string, number>
  /** How many routes' components (any) import each module statically. */
  allRoutes: Map<string, number>
  /** What the home page's component imports statically. */
  home: Set<string>
  /** Whether a module's static imports reach Ark UI (its chunk would need `ark`). */
  usesArk(id: string): boolean
  /** Whether a module's static imports reach zod (it would drag zod into the chunk that takes it). */
  usesZod(id: string): boolean
}

/** Found once from the module graph, at the first module the groups ask about. */
function chunkPlan(ctx: ModuleGraph): ChunkPlan {
  const entry = staticGraph(ctx, MAIN)
  const routes = new Set<string>()
  const seen = new Set<string>()
  const queue = [MAIN]
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id)) continue
    seen.add(id)
    if (/src-client[\\/]routes[\\/][^?]+\?tsr-split=component$/.test(id)) routes.add(id)
    const info = ctx.getModuleInfo(id)
    queue.push(...(info?.importedIds ?? []), ...(info?.dynamicallyImportedIds ?? []))
  }
  const firstRoutes = new Map<string, number>()
  const allRoutes = new Map<string, number>()
  let home = new Set<string>()
  for (const route of routes) {
    const graph = staticGraph(ctx, route)
    if (route.startsWith(`${HOME}?`)) home = graph
    const first = FIRST_LOAD_ROUTE.test(route)
    for (const id of graph) {
      if (entry.has(id)) continue
      allRoutes.set(id, (allRoutes.get(id) ?? 0) + 1)
      if (first) firstRoutes.set(id, (firstRoutes.get(id) ?? 0) + 1)
    }
  }
  const reaches = (pattern: RegExp) => {
    const memo = new Map<string, boolean>()
    return (id: string) => {
      let found = memo.get(id)
      if (found === undefined) {
        found = [...staticGraph(ctx, id)].some((dependency) => pattern.test(dependency))
        memo.set(id, found)
      }
      return found
    }
  }
  return { entry, firstRoutes, allRoutes, home, usesArk: reaches(ARK), usesZod: reaches(ZOD) }
}

/** The chunk a module goes to (see codeSplitting below), or null for the default (its route's chunk). */
function chunkOf(id: string, plan: ChunkPlan): 'app' | 'ark' | 'shared' | null {
  if (id === MAIN || FRAMEWORK.test(id)) return null
  if (plan.entry.has(id)) return 'app'
  if (ZOD.test(id) || plan.usesZod(id)) return null
  const first = plan.firstRoutes.get(id) ?? 0
  const all = plan.allRoutes.get(id) ?? 0
  if (ARK.test(id)) return first > 0 ? 'ark' : null
  // A first page's module that other routes import too: left to the default it gets a chunk of its own.
  if (first === 0 || all < 2) return null
  if (plan.usesArk(id)) return 'ark'
  if (plan.home.has(id)) return 'app'
  // One first page's module that only later pages share: in that page's own chunk (pageGroup), not in `shared`,
  // which every first page loads (the sign-up page loaded the studio's video uploader, the course page the cart's).
  return first > 1 ? 'shared' : null
}

/**
 * The chunk of a first page's component: named after its route, so a group takes in the modules only it of the first
 * pages imports (with the later routes that share them, which then load this chunk). Left to the default, each such
 * module got a chunk of its own, and a page over HTTP/1.1's six connections queued behind them (the cart: three).
 */
function pageGroup(id: string): string | null {
  if (!FIRST_LOAD_ROUTE.test(id)) return null
  const route = /routes[\\/](.+)\.tsx\?/.exec(id)?.[1]
  return route ? pageChunkName(route) : null
}
let plan: ChunkPlan | undefined

/**
 * Writes each built script and stylesheet beside itself compressed once, at the highest levels (`.br`, brotli 11;
 * `.gz`, gzip 9), which `@fastify/static` sends as they are (`preCompressed`, src-server/http/client.ts). Compressed per
 * request (@fastify/compress's default levels) the first load was ~15% bigger: brotli 11 takes the framework chunk
 * from 121 to 105 kB, a phone on "Fast 3G" about 0.1 s (issue 27).
 */
function precompressAssets(): Plugin {
  const brotli = promisify(brotliCompress)
  const gzipped = promisify(gzip)
  return {
    name: 'precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir
      if (!dir) return
      const files = Object.keys(bundle).filter((file) => /\.(js|css)$/.test(file))
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(dir, file)
          const content = await readFile(full)
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length },
            }),
            gzipped(content, { level: 9 }),
          ])
          await Promise.all([writeFile(`${full}.br`, br), writeFile(`${full}.gz`, gz)])
        }),
      )
    },
  }
}

const LAZY_ROUTE = path.resolve(import.meta.dirname, 'src-client', 'lib', 'lazy-route.ts')
/** The router code splitter's `import { lazyRouteComponent } from '@tanstack/react-router'` in a route module. */
const ROUTER_LAZY_IMPORT = /import\s*\{\s*lazyRouteComponent\s*\}\s*from\s*(['"])@tanstack\/react-router\1;?/

/**
 * Route modules take lazyRouteComponent from src-client/lib/lazy-route.ts, not the router's: the router's reloads the
 * page when a chunk cannot be fetched, which with the server out of reach ends on the browser's error page.
 */
function ownLazyRouteComponent(): Plugin {
  return {
    name: 'own-lazy-route-component',
    transform(code, id) {
      if (!/src-client[\\/]routes[\\/]/.test(id) || !ROUTER_LAZY_IMPORT.test(code)) return null
      return {
        code: code.replace(ROUTER_LAZY_IMPORT, `import { lazyRouteComponent } from ${JSON.stringify(LAZY_ROUTE)};`),
        map: null,
      }
    },
  }
}

// `vite build` builds the browser's bundle into dist/client; `vite build --ssr entry-server.tsx` builds the server
// renderer's entry into dist/ssr (its dependencies stay imports of node_modules).
export default defineConfig(({ isSsrBuild }) => ({
  root: 'src-client',
  publicDir: '../public',
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // Only the page itself (and the not-found page) in its own chunk: a route's error screen stays with the route,
      // so "Can't reach the server" shows when the page's chunk cannot be fetched (the router splits it by default).
      codeSplittingOptions: { defaultBehavior: [['component'], ['notFoundComponent']] },
      routesDirectory: './routes',
      generatedRouteTree: './routeTree.gen.ts',
    }),
    ownLazyRouteComponent(),
    react(),
    // In the browser's bundle and the server renderer's alike, so both write the same class names.
    staticCssCalls(
      pathToFileURL(path.resolve(import.meta.dirname, 'styled-system', 'css', 'index.mjs')).href,
      path.resolve(import.meta.dirname, 'src-client', 'lib', 'static-recipe.ts'),
    ),
    ...(isSsrBuild ? [] : [precompressAssets()]),
  ],
  build: isSsrBuild
    ? { outDir: '../dist/ssr', emptyOutDir: true, sourcemap: true, copyPublicDir: false }
    : {
        outDir: '../dist/client',
        emptyOutDir: true,
        sourcemap: true,
        // dist/client/.vite/manifest.json: which chunks each route's split modules need, so a server-rendered page
        // can ask for its own route's chunks with the entry's (src-server/http/ssr.ts routeChunks).
        manifest: true,
        rolldownOptions: {
          // Panda's generated runtime (styled-system/) sets itself up when imported: marked free of side effects, it is
          // left out of the bundle when no call to it remains after static-css-calls (issue 27).
          treeshake: { moduleSideEffects: (id: string) => !/[\\/]styled-system[\\/]/.test(id) },
          output: {
            // What every page runs (React, the router, TanStack Query, the tRPC client, Panda's css()) in one chunk:
            // left to the default, it came in a dozen small shared chunks, each compressed on its own (about 11 kB
            // more gzipped on the first load, and more requests).
            // Then the app's own modules: over HTTP/1.1's six connections each request costs a phone on "Fast 3G" a
            // 562 ms round trip, and a page cannot hydrate before its last chunk has arrived (issue 27,
            // `npm run bench:hydration`). Left to the default, the course page needed 21 chunks (four waves of
            // requests), most of them under 1 kB: components shared by a few routes each got a chunk of their own.
            // - app: what main.tsx imports statically, and what the home page shares with other pages (the cards, the
            //   cart buttons: the home page loads them anyway, so its first load does not grow);
            // - ark: the Ark UI / zag code that first pages' components import (the accordion of the course page and
            //   pricing), in one chunk the pages without it never fetch;
            // - shared: the other modules two or more first pages import (form fields, pagination, the progress bar);
            // - each route's own modules stay in its chunk (the default), zod in its own (loaded by forms on demand).
            // A first page thus loads the entry's chunks, its route's, and at most `shared` and `ark`.
            codeSplitting: {
              groups: [
                { name: 'framework', test: FRAMEWORK },
                {
                  name: (id, ctx) => {
                    plan ??= chunkPlan(ctx)
                    return chunkOf(id, plan) === 'app' ? 'app' : null
                  },
                },
                // Before `ark`: a group takes in the modules its own import (rolldown's includeDependenciesRecursively),
                // so with `ark` first the plain modules an Ark dialog shares with other pages (CopyField, use-copy,
                // dialog styles) went to `ark`, and every page loading `shared` then loaded `ark` too (27 kB).
                {
                  name: (id, ctx) => {
                    plan ??= chunkPlan(ctx)
                    return chunkOf(id, plan) === 'shared' ? 'shared' : null
                  },
                },
                {
                  name: (id, ctx) => {
                    plan ??= chunkPlan(ctx)
                    return chunkOf(id, plan) === 'ark' ? 'ark' : null
                  },
                },
                // zod in a chunk of its own, which the forms import on demand (not in the page that imports it first).
                { name: 'zod', test: ZOD },
                // Last: a first page's component and what it alone of the first pages imports (the groups above
                // took the rest).
                { name: (id) => pageGroup(id) },
              ],
            },
          },
        },
      },
  server: {
    port: 5173,
    // In development the API server runs beside Vite (see scripts/dev.ts).
    proxy: {
      '/trpc': `http://127.0.0.1:${serverPort}`,
      '/api': `http://127.0.0.1:${serverPort}`,
      '/auth': {
        target: `http://127.0.0.1:${serverPort}`,
        bypass: (req) => (req.url?.startsWith('/auth/callback') ? req.url : undefined),
      },
      '/uploads': `http://127.0.0.1:${serverPort}`,
      '/healthz': `http://127.0.0.1:${serverPort}`,
      '/livez': `http://127.0.0.1:${serverPort}`,
      '/readyz': `http://127.0.0.1:${serverPort}`,
      '/sitemap.xml': `http://127.0.0.1:${serverPort}`,
      '/sitemaps': `http://127.0.0.1:${serverPort}`,
    },
  },
}))

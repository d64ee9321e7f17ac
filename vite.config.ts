import path from 'node:path'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const serverPort = Number(process.env.PORT ?? 3000)
const FRAMEWORK =
  /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store|@tanstack|@trpc)[\\/]|styled-system[\\/]/

const MAIN = path.resolve(import.meta.dirname, 'src-client', 'main.tsx')

/** The app's modules main.tsx imports statically (every page runs them), found once from the module graph. */
function entryGraph(ctx: { getModuleInfo(id: string): { importedIds: readonly string[] } | null }): Set<string> {
  const seen = new Set<string>()
  const queue = [MAIN]
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id)) continue
    seen.add(id)
    queue.push(...(ctx.getModuleInfo(id)?.importedIds ?? []))
  }
  return seen
}
let appModules: Set<string> | undefined

// `vite build` builds the browser's bundle into dist/client; `vite build --ssr entry-server.tsx` builds the server
// renderer's entry into dist/ssr (its dependencies stay imports of node_modules).
export default defineConfig(({ isSsrBuild }) => ({
  root: 'src-client',
  publicDir: '../public',
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: './routes',
      generatedRouteTree: './routeTree.gen.ts',
    }),
    react(),
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
          output: {
            // What every page runs (React, the router, TanStack Query, the tRPC client, Panda's css()) in one chunk:
            // left to the default, it came in a dozen small shared chunks, each compressed on its own (about 11 kB
            // more gzipped on the first load, and more requests).
            // The app's own modules that main.tsx imports statically in one more: left to the default they came in
            // nine chunks of 0.1–1 kB (each shared with some route), and over HTTP/1.1's six connections each small
            // request costs a phone a round trip before the page can hydrate (issue 27, `npm run bench:hydration`).
            codeSplitting: {
              groups: [
                { name: 'framework', test: FRAMEWORK },
                {
                  name: (id, ctx) => {
                    appModules ??= entryGraph(ctx)
                    return appModules.has(id) && !FRAMEWORK.test(id) && id !== MAIN ? 'app' : null
                  },
                },
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

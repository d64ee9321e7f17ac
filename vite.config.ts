import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const serverPort = Number(process.env.PORT ?? 3000)
const FRAMEWORK =
  /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store|@tanstack|@trpc)[\\/]|styled-system[\\/]/

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
            codeSplitting: { groups: [{ name: 'framework', test: FRAMEWORK }] },
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

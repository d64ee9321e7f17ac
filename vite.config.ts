import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const serverPort = Number(process.env.PORT ?? 3000)

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
    : { outDir: '../dist/client', emptyOutDir: true, sourcemap: true },
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
      '/sitemap.xml': `http://127.0.0.1:${serverPort}`,
    },
  },
}))

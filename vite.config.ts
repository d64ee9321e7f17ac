import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const serverPort = Number(process.env.PORT ?? 3000)

export default defineConfig({
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
  build: { outDir: '../dist/client', emptyOutDir: true, sourcemap: true },
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
    },
  },
})

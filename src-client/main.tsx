import './lib/zod-config.ts'
import { RouterProvider } from '@tanstack/react-router'
import { RouterClient } from '@tanstack/react-router/ssr/client'
import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import './index.css'
import { createAppRouter } from './router.tsx'

const router = createAppRouter()
const root = document.getElementById('root')
if (!root) throw new Error('Missing #root element')

// A server-rendered page (src-server/http/ssr.ts) carries the router's dehydrated state ($_TSR): hydrate it.
// Pages the server leaves to the client (account, admin, the outage shell, the Vite dev server) render here.
if ((window as { $_TSR?: unknown }).$_TSR) {
  hydrateRoot(
    root,
    <StrictMode>
      <RouterClient router={router} />
    </StrictMode>,
  )
} else {
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  )
}

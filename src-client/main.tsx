import './lib/zod-config.ts'
import { RouterProvider } from '@tanstack/react-router'
import { RouterClient } from '@tanstack/react-router/ssr/client'
import { StrictMode, startTransition } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import './index.css'
import { loadWholeStylesheet } from './lib/page-styles.ts'
import { createAppRouter } from './router.tsx'

const router = createAppRouter()
const root = document.getElementById('root')
if (!root) throw new Error('Missing #root element')

// A server-rendered page (src-server/http/ssr.ts) carries the router's dehydrated state ($_TSR): hydrate it.
// Pages the server leaves to the client (account, admin, the outage shell, the Vite dev server) render here.
// Hydration runs as a transition: React renders the page in slices of a few milliseconds and lets the browser paint
// and take input between them, where a default-priority hydration is one task (on a phone at 4× CPU slowdown,
// 200–300 ms during which a tap waits: Lighthouse's total blocking time; issue 27). Next.js hydrates the same way.
if ((window as { $_TSR?: unknown }).$_TSR) {
  loadWholeStylesheet()
  startTransition(() => {
    hydrateRoot(
      root,
      <StrictMode>
        <RouterClient router={router} />
      </StrictMode>,
    )
  })
} else {
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  )
}

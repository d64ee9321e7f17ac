import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, Outlet, Scripts, useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'
import { css } from '#styled-system/css'
import { BrandedHeadContent } from '../components/layout/BrandedHeadContent.tsx'
import { Footer } from '../components/layout/Footer.tsx'
import { Header } from '../components/layout/Header.tsx'
import { NotFound } from '../components/layout/NotFound.tsx'
import { SkipLink } from '../components/layout/SkipLink.tsx'
import { AppToaster } from '../components/ui/toaster.tsx'
import { brandQuery } from '../lib/brand.ts'
import { sessionQuery } from '../lib/session.ts'
import { keepToSchoolSite, siteQuery } from '../lib/site.ts'
import type { Trpc } from '../lib/trpc.ts'

export interface RouterContext {
  queryClient: QueryClient
  trpc: Trpc
}

export const Route = createRootRouteWithContext<RouterContext>()({
  head: () => ({
    meta: [
      { title: 'SkillForge — courses, business services and plans' },
      { name: 'description', content: 'Courses, business services and subscription plans: learn, launch and grow.' },
    ],
  }),
  // A link followed on a school's own domain to a page that is not the school's goes where the server sends such a
  // page when it is loaded (lib/site.ts, decision 0143); on the server the first hook has decided already.
  beforeLoad: async ({ context, location, preload }) => {
    if (typeof window === 'undefined' || location.pathname.startsWith('/admin')) return
    await keepToSchoolSite({ context, location, preload })
  },
  // The shop header's data (who is signed in, the cart count, the Premium badge) starts with the page's own
  // loaders, in the same batched request, without holding the page up.
  // On the server they are awaited (in-process, a few ms), with what the page's buttons read for the visitor (the
  // cart's lines, the services' cheapest packages): the rendered page is the visitor's own, and the client hydrates
  // it from the page's cache without asking again.
  loader: async ({ context: { queryClient, trpc }, location }) => {
    if (location.pathname.startsWith('/admin')) return
    const header = Promise.all([
      queryClient.prefetchQuery(sessionQuery(trpc)),
      queryClient.prefetchQuery(trpc.cart.count.queryOptions()),
      queryClient.prefetchQuery(trpc.purchases.entitlements.queryOptions()),
      queryClient.prefetchQuery(brandQuery(trpc, location.pathname)),
      queryClient.prefetchQuery(siteQuery(trpc)),
    ])
    if (typeof window !== 'undefined') return
    await Promise.all([
      header,
      queryClient.prefetchQuery(trpc.cart.list.queryOptions()),
      queryClient.prefetchQuery(trpc.cart.cheapestPackages.queryOptions()),
    ])
  },
  component: RootLayout,
  notFoundComponent: NotFound,
})

function RootLayout() {
  // The admin area has its own layout (sidebar and header): the shop's header and footer stay outside it.
  const isAdmin = useRouterState({ select: (state) => state.location.pathname.startsWith('/admin') })
  // A server-rendered page is visible before its buttons work: this marks the moment they do (the e2e fixtures wait
  // for it after a page load, as a visitor's click needs it).
  // A button pressed before then was held by the page's inline script (src-server/http/early-clicks.ts): replay it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true'
    ;(window as { __releaseEarlyClick?: () => void }).__releaseEarlyClick?.()
  }, [])
  return (
    <div className={css({ minH: '100vh', display: 'flex', flexDir: 'column' })}>
      <BrandedHeadContent />
      <SkipLink />
      {isAdmin ? null : <Header />}
      <div id="main" className={css({ flex: 1, display: 'flex', flexDir: 'column' })}>
        <Outlet />
      </div>
      {isAdmin ? null : <Footer />}
      <AppToaster />
      {/* Server rendering: the router's dehydrated state (nothing on the client). */}
      <Scripts />
    </div>
  )
}

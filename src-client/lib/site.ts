// The school's site a page is on (its own domain: decision 0143), or null on the marketplace. The server's first hook
// sends a page loaded there that is not the school's to its place (src-server/http/school-hosts.ts); this does the
// same for a link followed in the browser, by the same rule (src-shared/school-site.ts): the home and the catalogue
// are the school's page, the marketplace's pages and other schools' courses (their pages and players) open on the
// marketplace's origin.
import { type QueryClient, useQuery } from '@tanstack/react-query'
import { redirect } from '@tanstack/react-router'
import { schoolSitePlace, sitePageOf } from '#shared/school-site.ts'
import type { Trpc } from './trpc.ts'
import type { RouterOutputs } from './types.ts'
import { useTRPC } from './use-trpc.ts'

export type SchoolSite = NonNullable<RouterOutputs['domains']['site']>

/** The Host does not change while the page lives: asked once (with the page, on the server), never again. */
export function siteQuery(trpc: Trpc) {
  return trpc.domains.site.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY })
}

/** The school's site this page is on, or null on the marketplace (and while unknown). */
export function useSite(): SchoolSite | null {
  const trpc = useTRPC()
  return useQuery(siteQuery(trpc)).data ?? null
}

/**
 * For the root's `beforeLoad` in the browser: on a school's site, a page that is not the school's goes where the server
 * would send it (the school's page, or the same address on the marketplace's origin, a full page load).
 */
export async function keepToSchoolSite({
  context,
  location,
  preload,
}: {
  context: { queryClient: QueryClient; trpc: Trpc }
  location: { pathname: string; href: string }
  preload: boolean
}) {
  const place = schoolSitePlace(location.pathname)
  if (!place) return
  const site = await context.queryClient.ensureQueryData(siteQuery(context.trpc)).catch(() => null)
  if (!site) return
  let away: boolean
  switch (place.to) {
    case 'home':
      throw redirect({ to: '/s/$slug', params: { slug: site.slug }, replace: true })
    case 'marketplace':
      away = true
      break
    case 'schoolPage':
      away = place.slug !== site.slug
      break
    default: {
      // A course's page or player, a bundle's page, a certificate: the server's answer by the same rule as its first
      // hook (the course's school, the bundle's owner), asked once a page, and not for a hovered link (never followed
      // away).
      if (preload) return
      const served = await context.queryClient
        .ensureQueryData(
          context.trpc.domains.serves.queryOptions(sitePageOf(place), { staleTime: Number.POSITIVE_INFINITY }),
        )
        .catch(() => null)
      if (served === null) return
      away = !served
    }
  }
  // A hovered link is not followed: only a navigation leaves the school's site.
  if (away && !preload) throw redirect({ href: `${site.marketplaceUrl}${location.href}` })
}

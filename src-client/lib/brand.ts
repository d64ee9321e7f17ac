// The brand the header and footer show (decision 0063): a white-labelled school's on its page /s/{slug} and under its
// own domain (the server reads the Host), else null for SkillForge's own.
import { useQuery } from '@tanstack/react-query'
import { useRouterState } from '@tanstack/react-router'
import type { Trpc } from './trpc.ts'
import { useTRPC } from './use-trpc.ts'

/** The school slug of a /s/{slug} page, else undefined. */
export function brandSlugOf(pathname: string): string | undefined {
  const match = /^\/s\/([^/]+)\/?$/.exec(pathname)
  return match?.[1] ? decodeURIComponent(match[1]).toLowerCase().slice(0, 60) : undefined
}

export function brandQuery(trpc: Trpc, pathname: string) {
  return trpc.domains.brand.queryOptions({ slug: brandSlugOf(pathname) }, { staleTime: 300_000 })
}

export function useBrand({ enabled = true }: { enabled?: boolean } = {}) {
  const trpc = useTRPC()
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  return useQuery({ ...brandQuery(trpc, pathname), enabled }).data ?? null
}

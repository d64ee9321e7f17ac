import { useRouteContext } from '@tanstack/react-router'

/** The tRPC options proxy from the router context, for components outside a route file (header, menus). */
export function useTRPC() {
  return useRouteContext({ from: '__root__' }).trpc
}

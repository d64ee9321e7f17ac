// Search params of the admin routes (see src-client/lib/search-params.ts for why they are not zod schemas).
import type { EnsureQueryDataOptions, QueryClient, QueryKey } from '@tanstack/react-query'
import { loadList } from '#client/lib/list-loader.ts'
import { optionalEnum, optionalPage, searchParams } from '#client/lib/search-params.ts'
import type { Trpc } from '#client/lib/trpc.ts'

export * from '#client/lib/search-params.ts'

/** The search of another page of a list, its filters kept; the first page is the URL without ?page. */
export const atPage =
  (page: number) =>
  <S extends { page?: number }>(prev: S): S => ({ ...prev, page: page === 1 ? undefined : page })

/** The search of an admin list filtered by one status and paged (?status=…&page=…). */
export type StatusPage<S extends string> = { status?: S; page?: number }

/**
 * The data side of such a list's route (orders, outbox, support inbox): its search, the loader's deps and the
 * loader, which waits for the list on entry and keeps the last results on screen while a filter or page loads.
 */
export function statusListRoute<
  const T extends readonly [string, ...string[]],
  TQueryFnData,
  TError,
  TData,
  TKey extends QueryKey,
>(
  statuses: T,
  query: (trpc: Trpc, search: StatusPage<T[number]>) => EnsureQueryDataOptions<TQueryFnData, TError, TData, TKey>,
) {
  return {
    validateSearch: searchParams({ status: optionalEnum(statuses), page: optionalPage }),
    loaderDeps: ({ search: { status, page } }: { search: StatusPage<T[number]> }) => ({ status, page }),
    loader: ({
      context,
      deps,
      cause,
    }: {
      context: { queryClient: QueryClient; trpc: Trpc }
      deps: StatusPage<T[number]>
      cause: 'preload' | 'enter' | 'stay'
    }) => loadList(context.queryClient, query(context.trpc, deps), cause),
  }
}

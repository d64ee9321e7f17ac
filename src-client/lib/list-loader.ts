// Loaders of lists that are filtered, searched and paged in place (the catalogue, the admin tables).
import type { EnsureQueryDataOptions, QueryClient, QueryKey } from '@tanstack/react-query'

/**
 * Entering the page waits for the list, so the page renders complete (and a failure shows the route's error).
 * A change made on the page itself (cause 'stay') only starts the fetch: the page keeps the previous results
 * on screen (the component reads with keepPreviousData) instead of giving way to the pending spinner, and
 * shows a failure in place.
 */
export async function loadList<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  queryClient: QueryClient,
  options: EnsureQueryDataOptions<TQueryFnData, TError, TData, TQueryKey>,
  cause: 'preload' | 'enter' | 'stay',
): Promise<void> {
  if (cause === 'stay') void queryClient.prefetchQuery(options)
  else await queryClient.ensureQueryData(options)
}

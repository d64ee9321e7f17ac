// Marking a thread read once it is on screen, never by loading it: the router loads a route's data when its link is
// only hovered or focused ("intent" preload), and a hovered link must not clear a list's unread count. One hook for
// every thread page (instructor messages, service orders); newer messages arriving while the page is open are
// marked read in turn.
import { type QueryKey, type UseMutationOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'

/**
 * `mark`: the page's markRead mutation (its tRPC `mutationOptions()`); `variables`: what it marks; `unseen`: the id
 * of the newest message from the other side (undefined: nothing to mark); `lists`: the lists and counts whose unread
 * numbers the mark changes.
 */
export function useMarkRead<TData, TError, TVariables, TContext>(
  mark: UseMutationOptions<TData, TError, TVariables, TContext>,
  variables: TVariables,
  unseen: string | undefined,
  lists: readonly QueryKey[],
) {
  const queryClient = useQueryClient()
  const { mutate } = useMutation({
    ...mark,
    // Runs even once the page is left: a list not on screen is dropped, so it loads afresh when opened again (not
    // its old counts first); one on screen loads again. A list loading right now (the page was just left for it, and
    // its route waits on that load) is not dropped, which would cancel the load and show the route's error: once
    // loaded it is marked stale, so it loads again as it shows.
    onSuccess: async () => {
      const cache = queryClient.getQueryCache()
      for (const query of lists.flatMap((queryKey) => cache.findAll({ queryKey, type: 'inactive' }))) {
        if (query.state.fetchStatus === 'idle') cache.remove(query)
        else {
          const stale = () => queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true })
          void query.fetch().then(stale, stale)
        }
      }
      await Promise.all(lists.map((queryKey) => queryClient.invalidateQueries({ queryKey })))
    },
  })
  // Marked again only when something new is on screen: `unseen` is a message id, so it changes with the thread too
  // (the variables, a new object each render, are read then).
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the newest unseen message, not on each render
  useEffect(() => {
    if (unseen) mutate(variables)
  }, [unseen, mutate])
}

// Marking a conversation read once it is on screen (the member's page and the studio's), never by loading it: the
// router loads a route's data when its link is only hovered or focused ("intent" preload), and a hovered link must
// not clear the list's "(N unread)". Newer messages arriving while the page is open are marked read in turn.
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useTRPC } from '#client/lib/use-trpc.ts'

/**
 * `messages`: the conversation on screen; `list`: the list whose unread counts the mark changes (the member's
 * conversations, or the studio inbox). Nothing to mark when the newest message is the reader's own: sending one
 * marked the thread read for its author already.
 */
export function useMarkRead(
  threadId: string | undefined,
  messages: readonly { id: string; mine: boolean }[],
  list: QueryKey,
) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const { mutate } = useMutation(
    trpc.instructorMessages.markRead.mutationOptions({
      // Runs even once the page is left: a list not on screen is dropped, so it loads afresh when opened again
      // (not its old counts first); one on screen loads again.
      onSuccess: async () => {
        queryClient.removeQueries({ queryKey: list, type: 'inactive' })
        await queryClient.invalidateQueries({ queryKey: list })
      },
    }),
  )
  const newest = messages.at(-1)
  const unseen = newest && !newest.mine ? newest.id : undefined
  useEffect(() => {
    if (threadId && unseen) mutate({ threadId })
  }, [threadId, unseen, mutate])
}

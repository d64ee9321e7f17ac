// A conversation with a course's instructors is marked read once it is on screen (the member's page and the
// studio's), never by loading it: the shared useMarkRead.
import type { QueryKey } from '@tanstack/react-query'
import { useMarkRead as useMarkShownRead } from '#client/lib/use-mark-read.ts'
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
  const newest = messages.at(-1)
  const unseen = threadId && newest && !newest.mine ? newest.id : undefined
  useMarkShownRead(trpc.instructorMessages.markRead.mutationOptions(), { threadId: threadId ?? '' }, unseen, [list])
}

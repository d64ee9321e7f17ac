// Saving the mail setting of instructor messages (issue 34: one e-mail per message, or a daily digest), shared by the
// member's messages page and the instructor's inbox, which each show the setting from a query of their own.
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'

/** The save: a toast of what the setting is now, then `refresh` (the page's query that shows it) loaded again. */
export function useSaveMailSetting(refresh: QueryKey) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  return useMutation(
    trpc.instructorMessages.setMailSetting.mutationOptions({
      onSuccess: async (result) => {
        notify('success', result.dailyDigest ? 'You will get one e-mail a day' : 'You will get an e-mail per message')
        await queryClient.invalidateQueries({ queryKey: refresh })
      },
      onError: (e) => notifyError(e),
    }),
  )
}

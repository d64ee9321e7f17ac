// The course's offline switch (Details tab): the owner lets the course's buyers save its lessons for offline viewing
// (Premium members always may, for courses in Premium).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { CourseSwitch } from './CourseSwitch.tsx'

export function OfflineSetting({ courseId }: { courseId: string }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const setting = useQuery(trpc.premiumPool.offline.queryOptions({ courseId }))
  const toggle = useMutation(
    trpc.premiumPool.setOffline.mutationOptions({
      onSuccess: async (result) => {
        await queryClient.invalidateQueries({ queryKey: trpc.premiumPool.offline.pathKey() })
        notify(
          'success',
          result.allowed ? 'Buyers can now save lessons offline.' : 'Buyers can no longer save lessons.',
        )
      },
      onError: (error) => notifyError(error),
    }),
  )
  return (
    <CourseSwitch
      id="offline"
      heading="Offline"
      label="Let buyers save lessons for offline"
      setting={setting}
      on={setting.data?.allowed ?? false}
      onChange={(allowed) => {
        if (!toggle.isPending) toggle.mutate({ courseId, allowed })
      }}
    >
      Buyers can then keep this course's lessons in their browser and watch them without a connection, for 30 days at a
      time. Premium members can always save the Premium courses they take.
    </CourseSwitch>
  )
}

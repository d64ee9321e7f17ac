// The course's offline switch (Details tab): the owner lets the course's buyers save its lessons for offline viewing
// (Premium members always may, for courses in Premium).
import { useMutation, useQuery } from '@tanstack/react-query'
import { useSwitchSaved } from '#client/components/ui/ToggleSwitch.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { CourseSwitch } from './CourseSwitch.tsx'

export function OfflineSetting({ courseId }: { courseId: string }) {
  const trpc = useTRPC()
  const setting = useQuery(trpc.premiumPool.offline.queryOptions({ courseId }))
  const saved = useSwitchSaved(trpc.premiumPool.offline.pathKey(), (result: { allowed: boolean }) =>
    result.allowed ? 'Buyers can now save lessons offline.' : 'Buyers can no longer save lessons.',
  )
  const toggle = useMutation(trpc.premiumPool.setOffline.mutationOptions(saved))
  return (
    <CourseSwitch
      id="offline"
      heading="Offline"
      label="Let buyers save lessons for offline"
      setting={setting}
      on={setting.data?.allowed ?? false}
      saving={toggle.isPending}
      onChange={(allowed) => toggle.mutate({ courseId, allowed })}
    >
      Buyers can then keep this course's lessons in their browser and watch them without a connection, for 30 days at a
      time. Premium members can always save the Premium courses they take.
    </CourseSwitch>
  )
}

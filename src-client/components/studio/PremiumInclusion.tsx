// The course's Premium switch (Details tab): the owner includes the course in Premium — it then opens to Premium
// members and earns a share of the monthly Premium pool by the minutes they watch — or takes it out.
import { useMutation, useQuery } from '@tanstack/react-query'
import { useSwitchSaved } from '#client/components/ui/ToggleSwitch.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { CourseSwitch } from './CourseSwitch.tsx'

export function PremiumInclusion({ courseId }: { courseId: string }) {
  const trpc = useTRPC()
  const inclusion = useQuery(trpc.premiumPool.inclusion.queryOptions({ courseId }))
  const saved = useSwitchSaved(trpc.premiumPool.pathKey(), (result: { included: boolean }) =>
    result.included ? 'Your course is now included in Premium.' : 'Your course is no longer in Premium.',
  )
  const toggle = useMutation(trpc.premiumPool.setInclusion.mutationOptions(saved))
  return (
    <CourseSwitch
      id="premium"
      heading="Premium"
      label="Include this course in Premium"
      setting={inclusion}
      on={inclusion.data?.included ?? false}
      saving={toggle.isPending}
      onChange={(included) => toggle.mutate({ courseId, included })}
    >
      Premium members can then take the whole course. Each month a share of Premium revenue is split among the courses
      in Premium by the minutes members watched, and your course's part is added to your available balance on the 1st.
    </CourseSwitch>
  )
}

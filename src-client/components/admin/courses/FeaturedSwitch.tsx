// The table's Featured switch (Ark UI Switch): flips on the server and toasts the spec's message.
import { useMutation } from '@tanstack/react-query'
import { ToggleSwitch } from '#client/components/ui/ToggleSwitch.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { useRefreshAdmin, useTRPC } from '../use-staff.ts'

export function FeaturedSwitch({
  id,
  title,
  featured,
  disabled,
}: {
  id: string
  title: string
  featured: boolean
  disabled: boolean
}) {
  const trpc = useTRPC()
  const refresh = useRefreshAdmin()
  const toggle = useMutation(
    trpc.admin.courses.setFeatured.mutationOptions({
      onSuccess: async (result) => {
        await refresh()
        notify('success', result.featured ? 'Course featured successfully!' : 'Course unfeatured successfully!')
      },
      onError: (error) => notifyError(error),
    }),
  )
  return (
    <ToggleSwitch
      checked={featured}
      // Not disabled while saving (that would drop keyboard focus): a flip meanwhile is ignored.
      disabled={disabled}
      onChange={(checked) => {
        if (!toggle.isPending) toggle.mutate({ id, featured: checked })
      }}
      label={`Featured: ${title}`}
      hideLabel
    />
  )
}

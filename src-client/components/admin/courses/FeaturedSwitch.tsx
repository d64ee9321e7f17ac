// The table's Featured switch (Ark UI Switch): flips on the server and toasts the spec's message.
import { Switch } from '@ark-ui/react/switch'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { css } from '#styled-system/css'
import { useTRPC } from '../use-staff.ts'

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
  const queryClient = useQueryClient()
  const toggle = useMutation(
    trpc.admin.courses.setFeatured.mutationOptions({
      onSuccess: async (result) => {
        await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() })
        notify('success', result.featured ? 'Course featured successfully!' : 'Course unfeatured successfully!')
      },
      onError: (error) => notifyError(error),
    }),
  )
  return (
    <Switch.Root
      checked={featured}
      // Not disabled while saving (that would drop keyboard focus): a flip meanwhile is ignored.
      disabled={disabled}
      onCheckedChange={(details) => {
        if (!toggle.isPending) toggle.mutate({ id, featured: details.checked })
      }}
      className={css({
        display: 'inline-flex',
        alignItems: 'center',
        cursor: 'pointer',
        _disabled: { cursor: 'not-allowed', opacity: 0.6 },
      })}
    >
      <Switch.Control
        className={css({
          w: '10',
          h: '6',
          p: '0.5',
          borderRadius: 'full',
          // A 3:1 edge when off (WCAG 1.4.11); the ring shows when its hidden input has keyboard focus.
          bg: 'gray.200',
          borderWidth: '1px',
          borderColor: 'gray.500',
          display: 'inline-flex',
          transition: 'background 0.15s',
          _checked: { bg: 'accent', borderColor: 'accent' },
          _focusVisible: { outline: '2px solid var(--focus-ring)', outlineOffset: '2px' },
        })}
      >
        <Switch.Thumb
          className={css({
            w: '4.5',
            h: '4.5',
            borderRadius: 'full',
            bg: 'white',
            boxShadow: 'card',
            transition: 'translate 0.15s',
            _checked: { translate: '16px 0' },
          })}
        />
      </Switch.Control>
      <Switch.Label className={css({ srOnly: true })}>Featured: {title}</Switch.Label>
      <Switch.HiddenInput />
    </Switch.Root>
  )
}

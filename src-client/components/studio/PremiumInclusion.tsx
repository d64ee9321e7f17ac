// The course's Premium switch (Details tab): the owner includes the course in Premium — it then opens to Premium
// members and earns a share of the monthly Premium pool by the minutes they watch — or takes it out. Co-instructors
// see the state only. An Ark UI Switch: a real checkbox underneath, so it works with the keyboard.
import { Switch } from '@ark-ui/react/switch'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'

const box = css({
  display: 'flex',
  flexDir: 'column',
  gap: '2',
  p: '4',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'card',
  bg: 'surface',
})

export function PremiumInclusion({ courseId }: { courseId: string }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const inclusion = useQuery(trpc.premiumPool.inclusion.queryOptions({ courseId }))
  const toggle = useMutation(
    trpc.premiumPool.setInclusion.mutationOptions({
      onSuccess: async (result) => {
        await queryClient.invalidateQueries({ queryKey: trpc.premiumPool.pathKey() })
        notify(
          'success',
          result.included ? 'Your course is now included in Premium.' : 'Your course is no longer in Premium.',
        )
      },
      onError: (error) => notifyError(error),
    }),
  )
  return (
    <section aria-labelledby="premium-heading" className={box}>
      <h2 id="premium-heading" className={css({ fontSize: 'md', fontWeight: 'semibold' })}>
        Premium
      </h2>
      {inclusion.isPending ? (
        <LoadingState label="Loading the Premium setting…" />
      ) : inclusion.isError ? (
        <ErrorState
          title="Could not load the Premium setting"
          error={inclusion.error}
          onRetry={() => inclusion.refetch()}
        />
      ) : (
        <>
          <Switch.Root
            checked={inclusion.data.included}
            disabled={!inclusion.data.canChange}
            onCheckedChange={(details) => {
              if (!toggle.isPending) toggle.mutate({ courseId, included: details.checked })
            }}
            className={css({
              display: 'inline-flex',
              alignItems: 'center',
              gap: '3',
              cursor: 'pointer',
              _disabled: { cursor: 'not-allowed', opacity: 0.7 },
            })}
          >
            <Switch.Control
              className={css({
                w: '10',
                h: '6',
                p: '0.5',
                flexShrink: 0,
                borderRadius: 'full',
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
            <Switch.Label className={css({ fontWeight: 'medium' })}>Include this course in Premium</Switch.Label>
            <Switch.HiddenInput />
          </Switch.Root>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            Premium members can then take the whole course. Each month a share of Premium revenue is split among the
            courses in Premium by the minutes members watched, and your course's part is added to your available balance
            on the 1st. {inclusion.data.canChange ? null : 'Only the course owner can change this.'}
          </p>
        </>
      )}
    </section>
  )
}

// /studio/coupons: creators on Pro or Enterprise make coupons for their own courses and see each one's uses and
// revenue; on Basic the page says coupons come with Pro.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { CouponEditor } from '#client/components/promotions/CouponEditor.tsx'
import { CouponTable } from '#client/components/promotions/CouponTable.tsx'
import { PlanNeeded } from '#client/components/studio/PlanNeeded.tsx'
import { borderedCard } from '#client/components/ui/card.ts'
import { boxHeading, TitledSection } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { useSession } from '#client/lib/session.ts'
import { COUPON_MESSAGES } from '#shared/promotions.ts'
import { css, cx } from '#styled-system/css'

export const Route = createFileRoute('/studio/coupons')({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.studioCoupons.list.queryOptions()),
  head: () => ({ meta: [{ title: 'Coupons | SkillForge Studio' }] }),
  pendingComponent: () => <LoadingState label="Loading your coupons…" />,
  errorComponent: routeError('Could not load your coupons'),
  component: StudioCoupons,
})

const card = cx(borderedCard, css({ p: '5' }))

function StudioCoupons() {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const { data } = useSuspenseQuery(trpc.studioCoupons.list.queryOptions())
  const { user } = useSession()
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.studioCoupons.pathKey() })
  const create = useMutation(trpc.studioCoupons.create.mutationOptions())
  const disable = useMutation(
    trpc.studioCoupons.disable.mutationOptions({ onError: (error) => notifyError(error), onSuccess: refresh }),
  )
  const enable = useMutation(
    trpc.studioCoupons.enable.mutationOptions({ onError: (error) => notifyError(error), onSuccess: refresh }),
  )
  return (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
      <PageIntro title="Coupons">Codes for your own courses, with their uses and revenue.</PageIntro>
      {data.allowed ? (
        <TitledSection id="new-coupon" title="New coupon for your courses" className={card} titleClassName={boxHeading}>
          <CouponEditor
            scopes={['courses', 'creator']}
            courses={data.courses}
            onCreate={async (input) => {
              // An all-courses code names its creator (the schema asks); here that is the signed-in creator, whom the
              // server sets regardless. Without it the code was refused under a creator field the studio has not.
              const creatorId = input.appliesTo === 'creator' ? (user?.id ?? null) : null
              await create.mutateAsync({ ...input, creatorId } as never)
              notify('success', 'Coupon created')
              await refresh()
            }}
          />
        </TitledSection>
      ) : (
        <PlanNeeded title={COUPON_MESSAGES.planRequired}>
          {data.coupons.some((coupon) => coupon.active)
            ? 'Your codes below are paused: buyers are told they are no longer offered until your plan includes coupons again.'
            : null}
        </PlanNeeded>
      )}
      <section aria-label="Your coupons" className={card}>
        {data.coupons.length === 0 ? (
          <p>No coupons yet.</p>
        ) : (
          <CouponTable
            coupons={data.coupons}
            studio
            busy={disable.isPending || enable.isPending}
            onToggle={(coupon) => (coupon.active ? disable : enable).mutate({ couponId: coupon.id })}
          />
        )}
      </section>
    </main>
  )
}

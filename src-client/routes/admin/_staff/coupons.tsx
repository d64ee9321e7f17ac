// /admin/coupons: store-wide coupons with their uses and revenue; editors and up create them and switch them off
// (the server checks the role and audits each change).
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { pageHead, pageTitle, panel } from '#client/components/admin/styles.ts'
import { useStaff } from '#client/components/admin/use-staff.ts'
import { CouponEditor } from '#client/components/promotions/CouponEditor.tsx'
import { CouponTable } from '#client/components/promotions/CouponTable.tsx'
import { boxHeading, TitledSection } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { COUPON_SCOPES } from '#shared/promotions.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/coupons')({
  head: () => ({ meta: [{ title: 'Coupons | SkillForge Admin' }] }),
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.admin.coupons.list.queryOptions()),
  pendingComponent: () => <LoadingState label="Loading coupons…" />,
  errorComponent: routeError('Could not load coupons'),
  component: Coupons,
})

function Coupons() {
  const { trpc } = Route.useRouteContext()
  const { can } = useStaff()
  const queryClient = useQueryClient()
  const { data } = useSuspenseQuery(trpc.admin.coupons.list.queryOptions())
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.coupons.pathKey() })
  const create = useMutation(trpc.admin.coupons.create.mutationOptions())
  const toggle = useMutation(
    trpc.admin.coupons.disable.mutationOptions({ onError: (error) => notifyError(error), onSuccess: refresh }),
  )
  const enable = useMutation(
    trpc.admin.coupons.enable.mutationOptions({ onError: (error) => notifyError(error), onSuccess: refresh }),
  )
  const editor = can('editor')

  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Coupons</h1>
      </div>
      {editor ? (
        <TitledSection
          id="new-coupon"
          title="New coupon"
          className={`${panel} ${css({ p: '5', mb: '6' })}`}
          titleClassName={boxHeading}
        >
          <CouponEditor
            scopes={COUPON_SCOPES}
            onCreate={async (input) => {
              await create.mutateAsync(input as never)
              notify('success', 'Coupon created')
              await refresh()
            }}
          />
        </TitledSection>
      ) : null}
      <section aria-label="Coupons" className={panel}>
        {data.length === 0 ? (
          <EmptyState title="No coupons yet">
            <p>Coupons you create appear here with their uses and revenue.</p>
          </EmptyState>
        ) : (
          <CouponTable
            coupons={data}
            busy={toggle.isPending || enable.isPending}
            onToggle={
              editor
                ? (coupon) =>
                    coupon.active ? toggle.mutate({ couponId: coupon.id }) : enable.mutate({ couponId: coupon.id })
                : undefined
            }
          />
        )}
      </section>
    </>
  )
}

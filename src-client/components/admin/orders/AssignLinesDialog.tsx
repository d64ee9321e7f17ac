// A partial refund made in the Stripe dashboard names no lines (decision 0026): the admin ticks the lines it gave
// back (they lose access at once) or saves with none ticked to keep the buyer's access. Either way the order's
// "Needs line assignment" flag is cleared.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { CheckboxField } from '#client/components/ui/form.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { AdminDialog } from '../AdminDialog.tsx'

export function AssignLinesDialog({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  return (
    <AdminDialog
      open={orderId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Assign refunded lines"
      description="A refund made in the Stripe dashboard did not say which lines it gave back. Ticked lines lose their access; leave all unticked to keep access."
      footer={null}
      wide
    >
      {orderId ? <AssignForm orderId={orderId} onDone={onClose} /> : null}
    </AdminDialog>
  )
}

function AssignForm({ orderId, onDone }: { orderId: string; onDone: () => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const detail = useQuery(trpc.admin.orders.detail.queryOptions({ id: orderId }))
  const assign = useMutation(trpc.admin.orders.assignRefundLines.mutationOptions())
  const [ticked, setTicked] = useState<Set<string>>(new Set())
  if (detail.isPending) return <LoadingState label="Loading order…" />
  if (detail.isError) return <ErrorState title="Could not load the order" error={detail.error} />
  const order = detail.data
  const refund = order.refunds.find((row) => row.needsLineAssignment)
  if (!refund) return <p>Nothing is waiting for a line assignment on this order.</p>
  const open = order.lines.filter((line) => !line.refunded)

  return (
    <form
      {...SCRIPT_ONLY_FORM}
      className={css({ display: 'flex', flexDir: 'column', gap: '3' })}
      onSubmit={async (event) => {
        event.preventDefault()
        try {
          const done = await assign.mutateAsync({ refundId: refund.id, lineIds: [...ticked] })
          notify('success', done.lines.length ? `${done.lines.length} line(s) marked refunded` : 'Access kept')
          await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() })
          onDone()
        } catch (error) {
          notifyError(error)
        }
      }}
    >
      <p className={css({ fontSize: 'sm' })}>
        Order {order.reference} · {order.customerEmail} · refunded in Stripe{' '}
        {formatMoney(refund.amountMinor, order.currency)} ({refund.reference})
      </p>
      <fieldset className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
        <legend className={css({ fontWeight: 'semibold', mb: '1' })}>Lines this refund gave back</legend>
        {open.map((line) => (
          <CheckboxField
            key={line.id}
            label={`${line.title} (${formatMoney(line.priceMinor, order.currency)})`}
            checked={ticked.has(line.id)}
            onChange={(event) => {
              const next = new Set(ticked)
              if (event.target.checked) next.add(line.id)
              else next.delete(line.id)
              setTicked(next)
            }}
          />
        ))}
      </fieldset>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2' })}>
        <button type="button" className={button({ variant: 'outline' })} onClick={onDone}>
          Cancel
        </button>
        <button
          type="submit"
          className={button({ variant: ticked.size ? 'danger' : 'primary' })}
          disabled={assign.isPending}
        >
          {assign.isPending ? 'Saving…' : ticked.size ? `Revoke ${ticked.size} line(s)` : 'Keep access'}
        </button>
      </div>
    </form>
  )
}

// A partial refund made in the Stripe dashboard names no lines (decision 0026): the admin ticks the lines it gave
// back (they lose access at once) or saves with none ticked to keep the buyer's access. A dispute lost for part of
// the payment is settled the same way: its order's access is withheld whatever is ticked, and the ticked lines' creators
// give back their shares (none ticked: the platform carries the loss). Either way the "Needs line assignment" flag is
// cleared.
import { useMutation } from '@tanstack/react-query'
import { button } from '#client/components/ui/button.ts'
import { CheckboxField } from '#client/components/ui/form.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { lineLabel, OrderFormActions, type OrderFormProps, orderDialog, useLineIds } from './OrderDialog.tsx'

export const AssignLinesDialog = orderDialog({
  title: 'Assign refunded lines',
  description:
    'Money given back in Stripe (a dashboard refund, or a dispute lost for part of the payment) did not say which lines it was for. Ticked lines are given back; leave all unticked to give back none.',
  form: AssignForm,
})

function AssignForm({ order, onCancel, onSaved }: OrderFormProps) {
  const trpc = useTRPC()
  const assign = useMutation(trpc.admin.orders.assignRefundLines.mutationOptions())
  const [ticked, setTicked] = useLineIds()
  const refund = order.refunds.find((row) => row.needsLineAssignment)
  if (!refund) return <p>Nothing is waiting for a line assignment on this order.</p>
  const open = order.lines.filter((line) => !line.refunded)
  const byBank = refund.method === 'dispute'

  return (
    <form
      {...SCRIPT_ONLY_FORM}
      className={css({ display: 'flex', flexDir: 'column', gap: '3' })}
      onSubmit={async (event) => {
        event.preventDefault()
        try {
          const done = await assign.mutateAsync({ refundId: refund.id, lineIds: [...ticked] })
          notify(
            'success',
            done.lines.length
              ? `${done.lines.length} line(s) marked refunded`
              : byBank
                ? 'No line given back'
                : 'Access kept',
          )
          await onSaved()
        } catch (error) {
          notifyError(error)
        }
      }}
    >
      <p className={css({ fontSize: 'sm' })}>
        Order {order.reference} · {order.customerEmail} · {byBank ? 'taken back by the bank' : 'refunded in Stripe'}{' '}
        {formatMoney(refund.amountMinor, order.currency)} ({refund.reference})
      </p>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        {byBank
          ? 'The dispute was lost: the order’s access stays withheld. The ticked lines’ creators give back their shares and their services are cancelled; with none ticked the platform carries the loss.'
          : 'Ticked lines lose their access; leave all unticked to keep access.'}
      </p>
      <fieldset className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
        <legend className={css({ fontWeight: 'semibold', mb: '1' })}>Lines this refund gave back</legend>
        {open.map((line) => (
          <CheckboxField
            key={line.id}
            label={lineLabel(line, order.currency)}
            checked={ticked.has(line.id)}
            onChange={(event) => setTicked(line.id, event.target.checked)}
          />
        ))}
      </fieldset>
      <OrderFormActions onCancel={onCancel}>
        <button
          type="submit"
          className={button({ variant: ticked.size ? 'danger' : 'primary' })}
          {...submitWhilePending(assign.isPending)}
        >
          {assign.isPending
            ? 'Saving…'
            : ticked.size
              ? `Revoke ${ticked.size} line(s)`
              : byBank
                ? 'Give back no line'
                : 'Keep access'}
        </button>
      </OrderFormActions>
    </form>
  )
}

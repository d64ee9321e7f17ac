// The admin's Refund dialog: the order's lines not refunded yet (all ticked: the whole order), the reference of a
// manual PayPal or bank refund, and a note. Card orders are refunded through Stripe by the server.
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { useFieldErrors } from '#client/components/ui/field-errors.tsx'
import { CheckboxField, FormAlert, TextField } from '#client/components/ui/form.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { lineLabel, OrderFormActions, type OrderFormProps, orderDialog, useLineIds } from './OrderDialog.tsx'

export const RefundDialog = orderDialog({
  title: 'Refund order',
  description: 'Choose the lines to give back. Each refunded line loses its access at once.',
  form: RefundForm,
})

function RefundForm({ order, onCancel, onSaved }: OrderFormProps) {
  const trpc = useTRPC()
  const refund = useMutation(trpc.admin.orders.refund.mutationOptions())
  const [unticked, setUnticked] = useLineIds()
  const [reference, setReference] = useState('')
  const [reason, setReason] = useState('')
  const fields = useFieldErrors<'reference' | 'reason' | 'lineIds'>()
  const open = order.lines.filter((line) => !line.refunded)
  const chosen = open.filter((line) => !unticked.has(line.id))
  const manual = order.method !== 'card'
  const whole = chosen.length === open.length

  return (
    <form
      {...SCRIPT_ONLY_FORM}
      ref={fields.formRef}
      noValidate
      className={css({ display: 'flex', flexDir: 'column', gap: '3' })}
      onSubmit={async (event) => {
        event.preventDefault()
        fields.clear()
        try {
          const done = await refund.mutateAsync({
            orderId: order.id,
            lineIds: whole ? undefined : chosen.map((line) => line.id),
            reference: reference || undefined,
            reason: reason || undefined,
          })
          notify('success', `Refunded ${formatMoney(done.amountMinor, order.currency)}`)
          await onSaved()
        } catch (error) {
          // A missing reference goes under its field; a refusal about the order (nothing left to refund) above.
          fields.fromError(error, ['reference', 'reason'])
        }
      }}
    >
      <p className={css({ fontSize: 'sm' })}>
        Order {order.reference} · {order.customerEmail} · paid {formatMoney(order.capturedMinor, order.currency)}
        {order.refundedMinor ? ` · refunded ${formatMoney(order.refundedMinor, order.currency)}` : ''}
      </p>
      <FormAlert>{fields.formError}</FormAlert>
      <fieldset className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
        <legend className={css({ fontWeight: 'semibold', mb: '1' })}>Lines to refund</legend>
        {order.lines.map((line) => (
          <CheckboxField
            key={line.id}
            label={`${lineLabel(line, order.currency)}${line.refunded ? ' — refunded' : ''}`}
            checked={!line.refunded && !unticked.has(line.id)}
            disabled={line.refunded}
            onChange={(event) => setUnticked(line.id, !event.target.checked)}
          />
        ))}
      </fieldset>
      {manual ? (
        <TextField
          label="Refund reference (PayPal or bank)"
          required
          maxLength={200}
          value={reference}
          error={fields.errors.reference}
          onChange={(event) => setReference(event.target.value)}
        />
      ) : null}
      <TextField
        label="Note (optional)"
        maxLength={500}
        value={reason}
        error={fields.errors.reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <OrderFormActions onCancel={onCancel}>
        <button
          type="submit"
          className={button({ variant: 'danger' })}
          {...submitWhilePending(refund.isPending || !chosen.length)}
        >
          {refund.isPending ? 'Refunding...' : whole ? 'Refund whole order' : `Refund ${chosen.length} line(s)`}
        </button>
      </OrderFormActions>
    </form>
  )
}

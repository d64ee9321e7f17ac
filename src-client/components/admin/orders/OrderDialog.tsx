// The frame of the admin's dialogs about one order's lines (Refund, Assign refunded lines): open while an order is
// chosen, the order loaded once here with links to its documents (invoices, credit notes), and after a save the
// admin's lists refreshed before the dialog closes.
import { useQuery } from '@tanstack/react-query'
import { type ComponentType, type ReactNode, useState } from 'react'
import { OrderDocuments } from '#client/components/purchases/OrderActions.tsx'
import { button } from '#client/components/ui/button.ts'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { AdminDialog } from '../AdminDialog.tsx'
import { useRefreshAdmin } from '../use-staff.ts'

export type AdminOrder = RouterOutputs['admin']['orders']['detail']

/** What the dialog's form is given: the loaded order, Cancel, and `onSaved` (refresh the lists, then close). */
export interface OrderFormProps {
  order: AdminOrder
  onCancel: () => void
  onSaved: () => Promise<void>
}

/**
 * A dialog about one order (`title`, `description`) whose body is `form`, given the loaded order: open while its
 * `orderId` names an order, closed through `onClose`.
 */
export function orderDialog({
  title,
  description,
  form,
}: {
  title: string
  description: string
  form: ComponentType<OrderFormProps>
}) {
  return function OrderDialog({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
    return (
      <AdminDialog
        open={orderId !== null}
        onOpenChange={(open) => (open ? undefined : onClose())}
        title={title}
        description={description}
        footer={null}
        wide
      >
        {orderId ? <LoadedOrder orderId={orderId} onClose={onClose} form={form} /> : null}
      </AdminDialog>
    )
  }
}

function LoadedOrder({
  orderId,
  onClose,
  form: Form,
}: {
  orderId: string
  onClose: () => void
  form: ComponentType<OrderFormProps>
}) {
  const trpc = useTRPC()
  const refresh = useRefreshAdmin()
  const detail = useQuery(trpc.admin.orders.detail.queryOptions({ id: orderId }))
  if (detail.isPending) return <LoadingState label="Loading order…" />
  if (detail.isError) return <ErrorState title="Could not load the order" error={detail.error} />
  const onSaved = async () => {
    await refresh()
    onClose()
  }
  return (
    <>
      <OrderDocuments order={detail.data} />
      <Form order={detail.data} onCancel={onClose} onSaved={onSaved} />
    </>
  )
}

/** The form's last row: Cancel, then its submit button (`children`). */
export function OrderFormActions({ onCancel, children }: { onCancel: () => void; children: ReactNode }) {
  return (
    <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2' })}>
      <button type="button" className={button({ variant: 'outline' })} onClick={onCancel}>
        Cancel
      </button>
      {children}
    </div>
  )
}

/** A set of line ids (the ticked or the unticked lines) and its setter for one line: in the set (`present`) or not. */
export function useLineIds() {
  const [lines, setLines] = useState<ReadonlySet<string>>(new Set())
  const setLine = (id: string, present: boolean) =>
    setLines((before) => {
      const next = new Set(before)
      if (present) next.add(id)
      else next.delete(id)
      return next
    })
  return [lines, setLine] as const
}

/** A line as the dialogs list it: its title and what it took ("Basic plan (Free trial, $0.00)" for a trial's plan). */
export function lineLabel(line: AdminOrder['lines'][number], currency: string): string {
  return `${line.title} (${line.freeTrial ? 'Free trial, ' : ''}${formatMoney(line.priceMinor, currency)})`
}

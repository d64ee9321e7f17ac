// Bank details (a sort code for GBP, a routing number for USD) and the order's payment reference;
// 'I've Made the Transfer' records it as awaiting transfer.
import { Dialog } from '@ark-ui/react/dialog'
import type { RouterOutputs } from '#client/lib/types.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { dialogContent, dialogPositioner } from '../ui/dialog.ts'
import { ModalFrame } from '../ui/modal-frame.tsx'
import { CopyField } from './CopyField.tsx'

type Started = RouterOutputs['payments']['start']
export type BankTransferOrder = Extract<Started, { method: 'bank_transfer' }>

export function BankTransferDialog({
  order,
  onClose,
  onConfirm,
  confirming,
  returnFocusTo,
}: {
  order: BankTransferOrder | null
  onClose: () => void
  onConfirm: () => void
  confirming: boolean
  /** Opened by the Pay button rather than a trigger: focus goes back to it when the dialog closes. */
  returnFocusTo: () => HTMLElement | null
}) {
  return (
    <ModalFrame open={order !== null} onOpenChange={(open) => (open ? null : onClose())} returnFocusTo={returnFocusTo}>
      <Dialog.Positioner className={dialogPositioner}>
        <Dialog.Content className={dialogContent()}>
          <Dialog.Title className={css({ fontSize: 'xl', fontWeight: 'bold' })}>Bank Transfer Details</Dialog.Title>
          {order ? (
            <>
              <Dialog.Description className={css({ mt: '1', color: 'fg.muted', fontSize: 'sm' })}>
                Transfer {formatMoney(order.totalMinor, order.currency)} to the account below and quote the payment
                reference so we can match your payment.
              </Dialog.Description>
              <dl className={css({ mt: '4' })}>
                <CopyField label="Bank Name" value={order.bank.bankName} />
                <CopyField label="Account Name" value={order.bank.accountName} />
                <CopyField label="Account Number" value={order.bank.accountNumber} />
                {order.bank.currency === 'GBP' ? (
                  <CopyField label="Sort Code" value={order.bank.sortCode} />
                ) : (
                  <CopyField label="Routing Number" value={order.bank.routingNumber} />
                )}
                <CopyField label="SWIFT Code" value={order.bank.swiftCode} />
                <CopyField label="Payment Reference" value={order.reference} />
              </dl>
            </>
          ) : null}
          <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3', mt: '6', flexWrap: 'wrap' })}>
            <Dialog.CloseTrigger className={button({ variant: 'outline' })}>Cancel</Dialog.CloseTrigger>
            <button type="button" className={button()} onClick={onConfirm} disabled={confirming}>
              {confirming ? 'Processing...' : "I've Made the Transfer"}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Positioner>
    </ModalFrame>
  )
}

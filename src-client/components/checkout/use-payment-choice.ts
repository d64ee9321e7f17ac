// The payment side of a checkout (the cart's, a gift's): the methods on offer, the one chosen, and a started bank
// transfer's order, shown in BankTransferDialog until the buyer says the transfer is made.
import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTRPC } from '#client/lib/use-trpc.ts'
import type { PaymentMethodValue } from '#shared/cart.ts'
import type { BankTransferOrder } from './BankTransferDialog.tsx'

export function usePaymentChoice() {
  const trpc = useTRPC()
  const options = useQuery(trpc.payments.options.queryOptions())
  const confirm = useMutation(trpc.payments.confirmBankTransfer.mutationOptions())
  const [method, setMethod] = useState<PaymentMethodValue | null>(null)
  const [bankOrder, setBankOrder] = useState<BankTransferOrder | null>(null)
  return {
    /** What the shop offers (card, PayPal, PayPal's hosted buttons), once loaded. */
    options: options.data,
    method,
    bankOrder,
    /** Spread onto PaymentMethods: an unconfigured method is shown as unavailable. */
    methods: {
      value: method,
      onChange: setMethod,
      available: { card: options.data?.card ?? false, paypal: options.data?.paypal ?? false },
    },
    /** A started bank transfer: its dialog opens with the bank details. */
    showBankOrder: setBankOrder,
    /** Spread onto BankTransferDialog, with the page's own onConfirm and returnFocusTo. */
    bankDialog: { order: bankOrder, onClose: () => setBankOrder(null), confirming: confirm.isPending },
    /** The buyer's "transfer made" for the shown order (the page says what follows). */
    confirmTransfer: (order: BankTransferOrder) => confirm.mutateAsync({ orderId: order.orderId }),
  }
}

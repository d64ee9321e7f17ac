// What a buyer can still do with an order: resume or cancel a pending checkout, pay a PayPal order, read the bank
// details of a transfer (shown until paid), open the invoice and credit notes, and request a refund of a course.
import { useMutation } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { useFocusWhenLost } from '#client/lib/focus.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending, whilePending } from '#client/lib/while-pending.ts'
import { PAYMENT_MESSAGES } from '#shared/cart.ts'
import { css } from '#styled-system/css'
import { useRefreshPurchases } from '../cart/hooks.ts'
import { CopyField } from '../checkout/CopyField.tsx'
import { button } from '../ui/button.ts'
import { inputClass, TextAreaField } from '../ui/form.tsx'
import { notify, notifyError } from '../ui/toaster.tsx'

export type BuyerOrder = RouterOutputs['purchases']['orders'][number]
type BuyerLine = BuyerOrder['items'][number]

const REFUND_WINDOW_MS = 30 * 24 * 60 * 60 * 1000
const row = css({ display: 'flex', flexWrap: 'wrap', gap: '2', mt: '3', alignItems: 'center' })

/** Resume payment / Cancel for a pending order; the PayPal link while it waits. */
export function PendingOrderActions({ order }: { order: BuyerOrder }) {
  const trpc = useTRPC()
  const refresh = useRefreshPurchases()
  const resume = useMutation(trpc.payments.resume.mutationOptions())
  const cancel = useMutation(trpc.payments.cancelOrder.mutationOptions())
  if (order.status !== 'pending') return null
  return (
    <div className={row}>
      {order.resumable ? (
        <button
          type="button"
          className={button({ size: 'sm' })}
          {...whilePending(resume.isPending, 'onClick', async () => {
            try {
              const { url } = await resume.mutateAsync({ orderId: order.id })
              window.location.assign(url)
            } catch (error) {
              notifyError(error)
              await refresh()
            }
          })}
        >
          {resume.isPending ? 'Opening...' : 'Resume payment'}
        </button>
      ) : null}
      {order.paypalUrl ? (
        <a className={button({ size: 'sm' })} href={order.paypalUrl} target="_blank" rel="noopener noreferrer">
          Pay with PayPal
        </a>
      ) : null}
      <button
        type="button"
        className={button({ size: 'sm', variant: 'outline' })}
        {...whilePending(cancel.isPending, 'onClick', async () => {
          try {
            await cancel.mutateAsync({ orderId: order.id })
            notify('success', PAYMENT_MESSAGES.orderCancelled)
          } catch (error) {
            notifyError(error)
          }
          await refresh()
        })}
      >
        Cancel order {order.reference}
      </button>
    </div>
  )
}

export function BankDetails({ order }: { order: BuyerOrder }) {
  if (!order.bank) return null
  const bank = order.bank
  return (
    <details className={css({ mt: '3' })} open>
      <summary className={css({ cursor: 'pointer', fontWeight: 'semibold', fontSize: 'sm' })}>
        Bank transfer details
      </summary>
      <dl className={css({ mt: '2' })}>
        <CopyField label="Bank Name" value={bank.bankName} />
        <CopyField label="Account Name" value={bank.accountName} />
        <CopyField label="Account Number" value={bank.accountNumber} />
        {bank.currency === 'GBP' ? (
          <CopyField label="Sort Code" value={bank.sortCode} />
        ) : (
          <CopyField label="Routing Number" value={bank.routingNumber} />
        )}
        <CopyField label="SWIFT Code" value={bank.swiftCode} />
        <CopyField label="Payment Reference" value={order.reference} />
      </dl>
    </details>
  )
}

/** An order's documents, as the buyer's history and staff's order dialogs both read them. */
type OrderDocumentsOf = Pick<BuyerOrder, 'invoice' | 'renewalInvoices' | 'creditNotes'>

/** Links to the print page and PDF of the invoice, each renewal's invoice and each credit note. */
export function OrderDocuments({ order }: { order: OrderDocumentsOf }) {
  const documents = [
    ...(order.invoice ? [{ kind: 'invoice' as const, ...order.invoice, label: 'Invoice' }] : []),
    ...order.renewalInvoices.map((invoice) => ({ kind: 'invoice' as const, ...invoice, label: 'Invoice' })),
    ...order.creditNotes.map((note) => ({ kind: 'credit_note' as const, ...note, label: 'Credit note' })),
  ]
  if (documents.length === 0) return null
  return (
    <ul className={css({ mt: '3', display: 'flex', flexDir: 'column', gap: '1', fontSize: 'sm' })}>
      {documents.map((document) => (
        <DocumentLinks key={document.id} {...document} />
      ))}
    </ul>
  )
}

export function DocumentLinks({
  kind,
  id,
  number,
  label,
}: {
  kind: 'invoice' | 'credit_note'
  id: string
  number: string
  label: string
}) {
  return (
    <li className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
      <span>
        {label} {number}
      </span>
      <Link
        to="/documents/$kind/$documentId"
        params={{ kind, documentId: id }}
        className={css({ color: 'accent', textDecoration: 'underline' })}
      >
        View {label.toLowerCase()} {number}
      </Link>
      <a
        href={`/api/documents/${kind}/${id}.pdf`}
        download={`${number}.pdf`}
        className={css({ color: 'accent', textDecoration: 'underline' })}
      >
        Download PDF {number}
      </a>
    </li>
  )
}

/** A course line's refund state, or the Request a refund form within 30 days of payment. */
export function LineRefund({ order, line }: { order: BuyerOrder; line: BuyerLine }) {
  // A sent request replaces its form: focus goes to the line's new state, not back to the top of the page.
  const state = useRef<HTMLSpanElement>(null)
  useFocusWhenLost(line.refunded ? 'refunded' : (line.refundRequest?.status ?? 'none'), () => state.current)
  if (line.refunded) {
    return (
      <span ref={state} className={css({ color: 'fg.muted' })}>
        Refunded
      </span>
    )
  }
  if (line.refundRequest?.status === 'open') {
    return (
      <span ref={state} className={css({ color: 'fg.muted' })}>
        Refund requested
      </span>
    )
  }
  if (line.refundRequest?.status === 'declined') {
    return (
      <span ref={state} className={css({ color: 'fg.muted' })}>
        Refund declined: {line.refundRequest.decisionReason}
      </span>
    )
  }
  const refundable =
    line.kind === 'course' &&
    (order.status === 'paid' || order.status === 'partially_refunded') &&
    order.paidAt !== null &&
    Date.now() - new Date(order.paidAt).getTime() <= REFUND_WINDOW_MS
  if (!refundable) return null
  if (!line.bundleId) return <RefundRequestForm lineId={line.id} title={line.title} />
  // A course bought in a bundle is given back with the bundle (decision 0149): one form, on its first line still held.
  const lead = order.items.find((item) => item.bundleId === line.bundleId && !item.refunded)
  return lead?.id === line.id ? (
    <RefundRequestForm
      lineId={line.id}
      title={`the bundle “${line.bundleTitle}”`}
      opener="Request a refund of the bundle"
      hint="The refund covers every course of the bundle still in your account."
    />
  ) : null
}

function RefundRequestForm({
  lineId,
  title,
  opener: openerText = 'Request a refund',
  hint,
}: {
  lineId: string
  title: string
  opener?: string
  hint?: string
}) {
  const trpc = useTRPC()
  const refresh = useRefreshPurchases()
  const request = useMutation(trpc.purchases.requestRefund.mutationOptions())
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState('')
  // The button and the form take each other's place: focus follows, so a keyboard user is not sent back to the top.
  const opener = useRef<HTMLButtonElement>(null)
  const cancelled = useRef(false)
  useEffect(() => {
    if (!open && cancelled.current) opener.current?.focus()
    cancelled.current = false
  }, [open])
  if (!open) {
    return (
      <button
        ref={opener}
        type="button"
        className={button({ size: 'sm', variant: 'outline' })}
        onClick={() => setOpen(true)}
      >
        {openerText}
      </button>
    )
  }
  return (
    <form
      {...SCRIPT_ONLY_FORM}
      className={css({ display: 'flex', flexDir: 'column', gap: '2', w: 'full', mt: '2' })}
      onSubmit={async (event) => {
        event.preventDefault()
        if (!reason.trim()) {
          notify('error', 'Please tell us why you would like a refund')
          return
        }
        try {
          await request.mutateAsync({ lineId, reason })
          notify('success', 'Refund requested. We will reply by e-mail.')
          await refresh()
        } catch (error) {
          notifyError(error)
        }
      }}
    >
      <TextAreaField
        label={`Why would you like a refund of ${title}?`}
        hint={hint}
        className={css({ display: 'flex', flexDir: 'column', gap: '2' })}
        controlClassName={`${inputClass} ${css({ h: '20', py: '2' })}`}
        required
        maxLength={1000}
        // Request a refund was pressed to write this very reason.
        autoFocus
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <div className={css({ display: 'flex', gap: '2' })}>
        <button type="submit" className={button({ size: 'sm' })} {...submitWhilePending(request.isPending)}>
          {request.isPending ? 'Sending...' : 'Send refund request'}
        </button>
        <button
          type="button"
          className={button({ size: 'sm', variant: 'outline' })}
          onClick={() => {
            cancelled.current = true
            setOpen(false)
          }}
        >
          Cancel
        </button>
      </div>
    </form>
  )
}

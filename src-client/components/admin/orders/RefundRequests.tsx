// Refund requests waiting for staff: the buyer's reason, Approve (refunded like any refund) or Decline with a reason.
// A gift's line says who holds it: approving takes the course from its recipient, not the buyer (decision 0146); a
// bundle's request names the courses approving gives back (decision 0149).
import { useMutation, useQuery } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { TextField } from '#client/components/ui/form.tsx'
import { boxHeading, TitledSection } from '#client/components/ui/layout.tsx'
import { ErrorState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { focusElement, pageHeading, useFocusWhenLost } from '#client/lib/focus.ts'
import { SCRIPT_ONLY_FORM } from '#client/lib/native-form.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { panel } from '../styles.ts'
import { useRefreshAdmin } from '../use-staff.ts'

export function RefundRequests({ canDecide }: { canDecide: boolean }) {
  const trpc = useTRPC()
  const requests = useQuery(trpc.admin.orders.requests.queryOptions())
  // A failed load says so (with Try Again) rather than looking like no requests.
  if (requests.isError) {
    return (
      <div className={`${panel} ${css({ mb: '6', p: '4' })}`}>
        <ErrorState
          title="Could not load refund requests"
          error={requests.error}
          onRetry={() => void requests.refetch()}
        />
      </div>
    )
  }
  if (!requests.data?.length) return null
  return (
    <TitledSection
      id="refund-requests"
      title="Refund requests"
      className={`${panel} ${css({ mb: '6', p: '4' })}`}
      titleClassName={boxHeading}
    >
      <ul className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
        {requests.data.map((request) => (
          <RequestRow key={request.id} request={request} canDecide={canDecide} />
        ))}
      </ul>
    </TitledSection>
  )
}

type Request = RouterOutputs['admin']['orders']['requests'][number]

function RequestRow({ request, canDecide }: { request: Request; canDecide: boolean }) {
  const trpc = useTRPC()
  const refresh = useRefreshAdmin()
  const decide = useMutation(trpc.admin.orders.decideRequest.mutationOptions())
  const [mode, setMode] = useState<'idle' | 'decline' | 'approve'>('idle')
  const [text, setText] = useState('')
  const manual = request.method !== 'card'
  const amount = formatMoney(request.priceMinor, request.currency)
  const row = useRef<HTMLLIElement>(null)
  // Approve, Decline and Cancel each replace the pressed button: focus goes to the first field or button shown.
  useFocusWhenLost(mode, () => row.current?.querySelector<HTMLElement>('form input, form button, button'))
  async function submit(decision: 'approve' | 'decline') {
    try {
      await decide.mutateAsync(
        decision === 'approve'
          ? { requestId: request.id, decision, reference: text || undefined }
          : { requestId: request.id, decision, reason: text },
      )
      notify('success', decision === 'approve' ? 'Refund approved' : 'Refund request declined')
      await refresh()
      // The request left the list with the focused button: the page's heading takes the focus.
      focusElement(pageHeading())
    } catch (error) {
      notifyError(error)
    }
  }
  return (
    <li
      ref={row}
      data-testid={`refund-request-${request.reference}`}
      className={css({ borderTopWidth: '1px', pt: '3' })}
    >
      <p>
        <strong>{request.bundle ? `Bundle “${request.bundle.title}”` : request.title}</strong> ({amount}) · order{' '}
        {request.reference} · {request.customerEmail}
      </p>
      {request.bundle ? (
        // A course bought in a bundle is asked back with the bundle (decision 0149).
        <p className={css({ fontSize: 'sm', fontWeight: 'medium' })} data-testid="refund-request-bundle">
          Approving refunds the bundle’s courses still held: {request.bundle.courses.join(', ')}
        </p>
      ) : null}
      {request.gift ? (
        <p className={css({ fontSize: 'sm', fontWeight: 'medium' })} data-testid="refund-request-gift">
          {request.gift.claimedAt
            ? `Gift — claimed by ${request.gift.recipientEmail} on ${formatDate(request.gift.claimedAt)}: approving takes the course from them`
            : `Gift — not claimed yet (for ${request.gift.recipientEmail})`}
        </p>
      ) : null}
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>“{request.reason}”</p>
      {canDecide && mode === 'idle' ? (
        <div className={css({ display: 'flex', gap: '2', mt: '2' })}>
          <button type="button" className={button({ size: 'sm' })} onClick={() => setMode('approve')}>
            Approve
          </button>
          <button
            type="button"
            className={button({ size: 'sm', variant: 'outline' })}
            onClick={() => setMode('decline')}
          >
            Decline
          </button>
        </div>
      ) : null}
      {mode !== 'idle' ? (
        <form
          {...SCRIPT_ONLY_FORM}
          className={css({ display: 'flex', gap: '2', alignItems: 'flex-end', mt: '2', flexWrap: 'wrap' })}
          onSubmit={(event) => {
            event.preventDefault()
            void submit(mode)
          }}
        >
          {mode === 'approve' && !manual ? (
            // A card refund goes back through Stripe at once: one more press, with the amount, as on the order's Refund.
            <p className={css({ fontSize: 'sm' })}>Refund {amount} to the buyer’s card now?</p>
          ) : (
            <TextField
              label={mode === 'decline' ? 'Reason for declining' : 'Refund reference (PayPal or bank)'}
              required
              maxLength={mode === 'decline' ? 1000 : 200}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          )}
          <button type="submit" className={button({ size: 'sm' })} {...submitWhilePending(decide.isPending)}>
            {mode === 'decline' ? 'Decline request' : manual ? 'Approve and refund' : `Refund ${amount}`}
          </button>
          <button type="button" className={button({ size: 'sm', variant: 'outline' })} onClick={() => setMode('idle')}>
            Cancel
          </button>
        </form>
      ) : null}
    </li>
  )
}
